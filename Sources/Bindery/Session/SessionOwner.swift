/// Whom a session answers besides its id: nobody (a session made by curl or
/// a script, or a shared one: its id is enough), the browser that made it (a
/// token the server keeps in that browser's cookie), or an identity.
package enum SessionOwner: Hashable, Sendable {
    case browser(String)
    case identity(String)
}
