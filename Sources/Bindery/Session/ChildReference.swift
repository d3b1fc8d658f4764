/// What an output that emits a ViewModel sends: where the new session lives.
struct ChildReference: Codable, Equatable {
    /// The registered name of the child's ViewModel.
    let viewModel: String
    /// The child session's id.
    let id: String
    /// Where the child session is served, if the application is served (the server's `/api/<vm>/<sid>`).
    let url: String?

    init(viewModel: String, id: String, url: String?) {
        self.viewModel = viewModel
        self.id = id
        self.url = url
    }

    enum CodingKeys: String, CodingKey { case viewModel, id, url }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        viewModel = try container.decode(String.self, forKey: .viewModel)
        id = try container.decode(String.self, forKey: .id)
        url = try container.decodeIfPresent(String.self, forKey: .url)
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(viewModel, forKey: .viewModel)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(url, forKey: .url)
    }
}
