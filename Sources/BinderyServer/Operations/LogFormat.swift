/// How log lines look: `text` for a terminal, `json` (one object per line) for
/// a log pipeline.
public enum LogFormat: String, Sendable, CaseIterable {
    case text, json
}
