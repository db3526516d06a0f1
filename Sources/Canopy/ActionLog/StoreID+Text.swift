extension StoreID {
    /// The identifier written as ``description`` (`root`, `root/1/0`), or `nil` for other text.
    init?(text: String) {
        var parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "root" else { return nil }
        parts.removeFirst()
        var path: [Int] = []
        path.reserveCapacity(parts.count)
        for part in parts {
            guard let index = Int(part), index >= 0 else { return nil }
            path.append(index)
        }
        self.init(path: path)
    }
}
