import BinderyServer
import Counter

// Options come from the command line and the environment: `--port` or PORT,
// `--public-directory`, the limits; `swift run my-app --help` lists them.
let app = BinderyApp()
app.register("counter", summary: "A counter with a step") { _ in CounterViewModel() }
try app.run()
