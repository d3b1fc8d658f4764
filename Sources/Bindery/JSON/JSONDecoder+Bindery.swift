import Foundation

extension JSONDecoder {
    /// The decoder Bindery reads every payload, creation parameter and kept
    /// value with. A `Date` reads from what a page's date and time fields send,
    /// ISO 8601: a date and time with its offset (`2026-11-27T09:30:00Z`,
    /// `…+01:00`, fractional seconds allowed), one without (a `datetime-local`
    /// field's `2026-11-27T09:30`, taken as UTC), or a date alone (a `date`
    /// field's `2026-11-27`, midnight UTC); or from a number, seconds since
    /// 2001-01-01 as Foundation writes a `Date` by default (what a kept value
    /// written before holds). One instance: decoding with a shared one is thread-safe.
    package static let bindery: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSinceReferenceDate: seconds) }
            let text = try container.decode(String.self)
            guard let date = ISODates.date(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an ISO 8601 date (2026-11-27) or date and time (2026-11-27T09:30:00Z), got '\(text)'")
            }
            return date
        }
        return decoder
    }()
}

/// ISO 8601 dates as HTML's date and time fields write them.
enum ISODates {
    package static func date(_ text: String) -> Date? {
        let utc = TimeZone(identifier: "UTC")!
        if text.count == 10 {
            var calendar = Calendar(identifier: .iso8601)
            calendar.timeZone = utc
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
                (1...12).contains(month), (1...31).contains(day)
            else { return nil }
            let components = DateComponents(calendar: calendar, timeZone: utc, year: year, month: month, day: day)
            guard components.isValidDate, let date = calendar.date(from: components) else { return nil }
            return date
        }
        let hasOffset = text.hasSuffix("Z") || text.dropFirst(10).contains("+") || text.dropFirst(10).contains("-")
        // A time without seconds (a datetime-local field's) gets them.
        var full = text
        if let t = text.firstIndex(of: "T"), text[text.index(after: t)...].prefix(while: { $0 != "Z" && $0 != "+" && $0 != "-" }).count == 5 {
            full.insert(contentsOf: ":00", at: text.index(t, offsetBy: 6))
        }
        if !hasOffset { full += "Z" }
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: full) { return date }
        }
        return nil
    }
}
