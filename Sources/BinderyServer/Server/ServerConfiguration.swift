import Bindery
import Foundation

/// How the server listens and its limits; every limit is explicit and configurable.
public struct ServerConfiguration: Sendable {
    /// The TCP port; 0 picks a free one (see `Server.port`).
    public var port: UInt16 = 8080
    /// The IPv4 address to listen on: loopback only by default; `0.0.0.0` is
    /// every address (in a container).
    public var host = "127.0.0.1"
    /// The host names the server answers to in `Host` (DNS rebinding): names
    /// (`example.com`), `.example.com` for it and its subdomains, or `*` for
    /// any. A host given as an IP address always passes. nil: `localhost` and
    /// the names under it, which is right on loopback; listening on every
    /// address without naming hosts logs a warning at start.
    public var allowedHosts: [String]?
    /// Proxies (addresses or networks, `10.0.0.0/8`) whose `X-Forwarded-For`
    /// and `X-Forwarded-Proto` name the client; from anyone else those headers
    /// are ignored. Empty: the socket's peer is the client.
    public var trustedProxies: [String] = []
    /// Whether a session created through a trusted proxy takes the id the
    /// proxy names in `X-Bindery-Session-Id` (32 lowercase hex digits, nginx's
    /// `$request_id`), so that a proxy which routes by session id sends the
    /// creator's later requests to the node that made it. An id of another
    /// form, or one already live or stored, is not taken: the session gets an
    /// id of the server's own. Off: the header is ignored.
    public var sessionIDFromProxy = false
    /// The Content-Security-Policy of every HTML page served (the app's pages
    /// and the client's); "" sends none. The default allows this origin's
    /// scripts, styles and connections only, no inline script, no framing.
    public var contentSecurityPolicy = SecurityHeaders.defaultContentSecurityPolicy
    /// Worker threads of libmicrohttpd's epoll pool, one per core: they only
    /// parse, write, suspend and resume, while sessions run on the executor
    /// pool. On 2 cores one worker is the bottleneck for inputs (two answer
    /// 1.2–1.4× as many), and under a fan-out that saturates it one worker
    /// falls behind, writing ticks two at a time, where two keep up.
    public var threads = UInt32(UsableCPUs.count)
    /// Most open connections (streams included); more are answered 503 at once.
    public var maxConnections: UInt32 = 4_096
    /// Most open connections from one client address (a trusted proxy's are
    /// not counted); more are answered 429 at once. A browser opens six per
    /// host; many people behind one NAT share an address.
    public var maxConnectionsPerClient = 256
    /// Sessions one client may create a second, after a burst of
    /// `sessionCreationBurst`; faster answers 429 with `Retry-After`.
    public var sessionCreationRate: Double = 10
    /// Sessions one client may create at once before `sessionCreationRate` applies.
    public var sessionCreationBurst = 50
    /// How long a request's headers may take to arrive, from the connection's
    /// opening or the previous response's end (so also how long a kept-alive
    /// connection may wait idle): then it is closed. A client sending one byte
    /// at a time cannot hold a connection past it.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a request's body may take to arrive after its headers.
    public var bodyTimeout: Duration = .seconds(30)
    /// How long a stream's client may take nothing while bytes wait for it (its
    /// socket full, or bytes the kernel sent that it never acknowledges): then
    /// the stream is closed, its socket reset and its places given back. The
    /// client resumes by `Last-Event-ID` if it comes back.
    public var stalledStreamTimeout: Duration = .seconds(30)
    /// What the kernel may hold to send on a stream's socket (`SO_SNDBUF`; the
    /// kernel doubles it for its bookkeeping): a client that stops reading pins
    /// at most this much kernel memory, besides the stream's own buffer
    /// (`streamBufferBytes`), until it is found stalled.
    public var streamSendBufferBytes = 64 * 1024
    /// Most open event streams over all sessions; more answer 503.
    public var maxStreams = 4_000
    /// Largest request body accepted; larger answers 413.
    public var maxBodyBytes = 64 * 1024
    /// Per-connection memory pool of libmicrohttpd (headers and buffers).
    public var connectionMemoryBytes = 16 * 1024
    /// Seconds an idle (not suspended) connection may stay open.
    public var connectionTimeoutSeconds: UInt32 = 120
    /// How long a browser's sign-in lasts from its making (`BrowserSignIn`), used or not.
    public var signInLifetime: Duration = .seconds(30 * 24 * 3600)
    /// How long a browser's sign-in lasts unused.
    public var signInIdleLimit: Duration = .seconds(7 * 24 * 3600)
    /// How long a script's token (`Authorization: Bearer`, `ScriptTokens`) lasts from its making.
    public var scriptTokenLifetime: Duration = .seconds(365 * 24 * 3600)
    /// The page a browser is sent to, with `?next=<path>`, when it asks for a page that
    /// needs a signed-in identity without one (`BinderyApp.page(…, signIn: .required)`); nil: 401.
    public var signInPage: String?
    /// Whether requests' sign-in cookies are read: set by the server when its app keeps sign-ins.
    var readsSignInCookie = false
    /// The inputs that take a file (`Upload`), with their size and type limits (`BinderyApp.upload`).
    public var uploads: [UploadRule] = []
    /// Where uploads arrive before their input's turn; nil: a folder of the
    /// server's own in the system's temporary directory, removed when it
    /// stops. Put it on the disk where the app keeps the files it moves, so a
    /// move is a rename.
    public var uploadDirectory: URL?
    /// Whether HTML pages arrive with their values (`FirstPaint`): each bound root
    /// rendered with its session's snapshot, which the client adopts.
    public var firstPaint = true
    /// How long a session made for a page's first paint may take over its start
    /// inputs (`data-bindery-start`) before the page goes without what they bring
    /// (the stream brings it after).
    public var firstPaintWait: Duration = .seconds(1)
    /// The `retry:` each stream starts with: how long a client waits before reconnecting.
    public var retryMilliseconds = 1_000
    /// How often a `: keep-alive` comment goes down every stream.
    public var heartbeat: Duration = .seconds(15)
    /// How long stopping waits for requests whose session is still busy (they
    /// then get a 503) and, after that, for sessions to finish disposing.
    public var shutdownGrace: Duration = .seconds(2)
    /// The folder of static files (`GET /`, `GET /<file>`).
    public var publicDirectory: URL = URL(fileURLWithPath: "Public")
    /// Pages at real URLs (`BinderyApp.page`), tried in order before the public folder's files.
    public var pages: [PageRoute] = []
    /// Whether `/metrics` counts (on by default; off saves a few atomic adds per request and per stream write).
    public var metrics = true
    /// The SQLite file the app's database lives in, for an app that registers
    /// one (`BinderyDatabase`'s `registerDatabase`); `:memory:` keeps it in memory.
    public var databasePath = "bindery.sqlite"
    /// Whether an app with a database keeps its sessions in it, so that they
    /// outlive the process (`Application.keepSessions(in:)`); false keeps
    /// them in memory only.
    public var keepsSessions = true
    /// The app's authentication: every `/api` request goes through it first,
    /// and the identity it returns reaches the ViewModel factory and binds the
    /// session (`BinderyApp.authenticate`). nil: no authentication.
    public var authenticate: Authenticator?
    /// Development only (`--development`): pages are told, as `bindery.dev`
    /// events, of ViewModels that fail and of what the dev loop (`my-app dev`)
    /// says; with `runtime.recordsTranscripts`, sessions download as tests.
    public var development = false
    /// Where the dev loop's notices arrive, one JSON object a line: a file
    /// descriptor (standard input, under `my-app dev`); nil: no dev loop.
    package var devLoopNotices: Int32?
    /// How the server waits on sockets: epoll where there is one (Linux),
    /// poll(2) elsewhere, or on Linux when asked (the tests run both).
    package var socketWaiting = SocketWaiting.platformDefault
    /// The runtime's limits, and the logger requests and streams are logged to too (`runtime.logger`).
    public var runtime = RuntimeConfiguration()

    /// The defaults.
    public init() {}
}

/// How libmicrohttpd's workers and the hang-up watcher wait on sockets.
package enum SocketWaiting: Sendable {
    /// epoll (Linux only): a cost per ready socket, whatever the number open.
    case epoll
    /// poll(2) (every platform): a cost per open socket at each wait.
    case poll

    /// epoll on Linux, poll(2) elsewhere.
    package static var platformDefault: SocketWaiting {
        #if os(Linux)
            .epoll
        #else
            .poll
        #endif
    }
}
