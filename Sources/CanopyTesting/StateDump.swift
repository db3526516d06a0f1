/// A structural, line-per-field dump of a value, built with `Mirror`, for diffs that people read.
///
/// ```
/// SearchState(
///   request: Request(
///     text: "milk"
///     serial: 1
///   )
///   phase: .debouncing
///   results: nil
/// )
/// ```
///
/// Sets and dictionaries are sorted, so two equal values dump the same whatever their order.
enum StateDump {
    /// The lines of the dump of `value`.
    static func lines(of value: Any) -> [String] {
        var dumper = Dumper()
        dumper.append(value, label: nil, indent: 0)
        return dumper.lines
    }

    /// The dump of `value` on one line, for short values such as actions.
    static func line(of value: Any) -> String {
        lines(of: value)
            .map { $0.trimmingPrefix(while: { $0 == " " }) }
            .joined(separator: " ")
            .replacing("( ", with: "(")
            .replacing(" )", with: ")")
            .replacing("[ ", with: "[")
            .replacing(" ]", with: "]")
    }

    private struct Dumper {
        var lines: [String] = []
        /// The objects being dumped, to cut reference cycles.
        var open: Set<ObjectIdentifier> = []

        mutating func append(_ value: Any, label: String?, indent: Int) {
            let prefix = String(repeating: "  ", count: indent) + (label.map { "\($0): " } ?? "")
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                if let wrapped = mirror.children.first {
                    append(wrapped.value, label: label, indent: indent)
                } else {
                    lines.append(prefix + "nil")
                }
            case .enum:
                guard let payload = mirror.children.first else {
                    lines.append(prefix + "." + String(describing: value))
                    return
                }
                let name = payload.label ?? String(describing: value)
                appendGroup(prefix + ".\(name)(", ")", indent: indent) { dumper in
                    let inner = Mirror(reflecting: payload.value)
                    if inner.displayStyle == .tuple {
                        for child in inner.children {
                            dumper.append(child.value, label: child.label.flatMap(Self.tupleLabel), indent: indent + 1)
                        }
                    } else {
                        dumper.append(payload.value, label: nil, indent: indent + 1)
                    }
                }
            case .collection, .set:
                var elements = mirror.children.map { Dumper.dump($0.value, indent: indent + 1) }
                if mirror.displayStyle == .set {
                    elements.sort { $0.joined(separator: "\n") < $1.joined(separator: "\n") }
                }
                appendGroup(prefix + "[", "]", indent: indent, isEmpty: elements.isEmpty) { dumper in
                    for element in elements { dumper.lines += element }
                }
            case .dictionary:
                let pairs = mirror.children.map { pair -> (key: String, value: Any) in
                    let parts = Array(Mirror(reflecting: pair.value).children)
                    return (StateDump.line(of: parts[0].value), parts[1].value)
                }
                appendGroup(prefix + "[", "]", indent: indent, isEmpty: pairs.isEmpty) { dumper in
                    for pair in pairs.sorted(by: { $0.key < $1.key }) {
                        dumper.append(pair.value, label: pair.key, indent: indent + 1)
                    }
                }
            case .tuple:
                appendGroup(prefix + "(", ")", indent: indent) { dumper in
                    for child in mirror.children {
                        dumper.append(child.value, label: child.label, indent: indent + 1)
                    }
                }
            case .struct, .class:
                if mirror.children.isEmpty {
                    lines.append(prefix + Self.leaf(value))
                    return
                }
                let object = mirror.displayStyle == .class ? ObjectIdentifier(value as AnyObject) : nil
                if let object, open.contains(object) {
                    lines.append(prefix + "\(type(of: value))(↩︎ cycle)")
                    return
                }
                if let object { open.insert(object) }
                appendGroup(prefix + "\(type(of: value))(", ")", indent: indent) { dumper in
                    var current: Mirror? = mirror
                    while let level = current {
                        for child in level.children {
                            dumper.append(child.value, label: child.label, indent: indent + 1)
                        }
                        current = level.superclassMirror
                    }
                }
                if let object { open.remove(object) }
            default:
                lines.append(prefix + Self.leaf(value))
            }
        }

        private mutating func appendGroup(
            _ opening: String,
            _ closing: String,
            indent: Int,
            isEmpty: Bool = false,
            body: (inout Dumper) -> Void
        ) {
            if isEmpty {
                lines.append(opening + closing)
                return
            }
            lines.append(opening)
            body(&self)
            lines.append(String(repeating: "  ", count: indent) + closing)
        }

        private static func dump(_ value: Any, indent: Int) -> [String] {
            var dumper = Dumper()
            dumper.append(value, label: nil, indent: indent)
            return dumper.lines
        }

        /// Tuple labels of an enum payload: `.0` for unlabelled values, which reads better left out.
        private static func tupleLabel(_ label: String) -> String? {
            label.hasPrefix(".") ? nil : label
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
