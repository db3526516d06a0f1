/// A structural dump of a value, built with `Mirror`, for diffs and messages that people read.
///
/// ```
/// Search(
///   query: "milk"
///   phase: .debouncing
///   results: [
///     "milk"
///   ]
/// )
/// ```
///
/// Sets and dictionaries are sorted, so two equal values dump the same whatever their order.
enum StateDump {
    /// The dump of `value`, one field per line.
    static func lines(of value: Any) -> [String] {
        var lines: [String] = []
        var builder = Builder()
        builder.node(for: value).appendLines(label: nil, indent: 0, to: &lines)
        return lines
    }

    /// The dump of `value` on one line, for short values such as actions.
    static func line(of value: Any) -> String {
        var builder = Builder()
        return builder.node(for: value).inline
    }

    /// A value as a tree: a leaf, or a group of labelled children between brackets.
    private indirect enum Node {
        case leaf(String)
        case group(opening: String, children: [(label: String?, node: Node)], closing: String)

        func appendLines(label: String?, indent: Int, to lines: inout [String]) {
            let prefix = String(repeating: "  ", count: indent) + (label.map { "\($0): " } ?? "")
            switch self {
            case .leaf(let text):
                lines.append(prefix + text)
            case .group(let opening, let children, let closing):
                guard !children.isEmpty else {
                    lines.append(prefix + opening + closing)
                    return
                }
                lines.append(prefix + opening)
                for child in children {
                    child.node.appendLines(label: child.label, indent: indent + 1, to: &lines)
                }
                lines.append(String(repeating: "  ", count: indent) + closing)
            }
        }

        var inline: String {
            switch self {
            case .leaf(let text):
                text
            case .group(let opening, let children, let closing):
                opening
                    + children.map { child in (child.label.map { "\($0): " } ?? "") + child.node.inline }
                    .joined(separator: ", ") + closing
            }
        }
    }

    private struct Builder {
        /// The objects being dumped, to cut reference cycles.
        var open: Set<ObjectIdentifier> = []

        mutating func node(for value: Any) -> Node {
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                guard let wrapped = mirror.children.first else { return .leaf("nil") }
                return node(for: wrapped.value)
            case .enum:
                guard let payload = mirror.children.first else { return .leaf("." + String(describing: value)) }
                let name = payload.label ?? String(describing: value)
                let inner = Mirror(reflecting: payload.value)
                let children =
                    inner.displayStyle == .tuple
                    ? inner.children.map { (Self.payloadLabel($0.label), node(for: $0.value)) }
                    : [(nil, node(for: payload.value))]
                return .group(opening: ".\(name)(", children: children, closing: ")")
            case .collection:
                return .group(opening: "[", children: mirror.children.map { (nil, node(for: $0.value)) }, closing: "]")
            case .set:
                let elements = mirror.children.map { node(for: $0.value) }.sorted { $0.inline < $1.inline }
                return .group(opening: "[", children: elements.map { (nil, $0) }, closing: "]")
            case .dictionary:
                let pairs = mirror.children.map { pair -> (label: String?, node: Node) in
                    let parts = Array(Mirror(reflecting: pair.value).children)
                    return (node(for: parts[0].value).inline, node(for: parts[1].value))
                }
                return .group(opening: "[", children: pairs.sorted { $0.label ?? "" < $1.label ?? "" }, closing: "]")
            case .tuple:
                // `.0`, `.1`… stay: they say how to reach the element (`$0.1`).
                let children = mirror.children.map { ($0.label, node(for: $0.value)) }
                return .group(opening: "(", children: children, closing: ")")
            case .struct, .class:
                return record(value, mirror)
            default:
                return .leaf(Self.leaf(value))
            }
        }

        private mutating func record(_ value: Any, _ mirror: Mirror) -> Node {
            guard !mirror.children.isEmpty else { return .leaf(Self.leaf(value)) }
            let object = mirror.displayStyle == .class ? ObjectIdentifier(value as AnyObject) : nil
            if let object {
                guard open.insert(object).inserted else { return .leaf("\(type(of: value))(↩︎ cycle)") }
            }
            var children: [(label: String?, node: Node)] = []
            var level: Mirror? = mirror
            while let current = level {
                children += current.children.map { ($0.label, node(for: $0.value)) }
                level = current.superclassMirror
            }
            if let object { open.remove(object) }
            return .group(opening: "\(type(of: value))(", children: children, closing: ")")
        }

        /// Labels of an enum's associated values: `.0`, `.1`… for unlabelled ones, which read better left out.
        private static func payloadLabel(_ label: String?) -> String? {
            guard let label, !label.hasPrefix(".") else { return nil }
            return label
        }

        private static func leaf(_ value: Any) -> String {
            switch value {
            case let text as String: String(reflecting: text)
            case let character as Character: String(reflecting: character)
            default: String(describing: value)
            }
        }
    }
}
