/// Why an image could not be read or decoded, in words a person can be shown.
public struct ImageDecodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A complete sentence, e.g. "The file is not an image in a format Riffle reads".
    public let reason: String

    /// An error with the given human-readable reason.
    public init(reason: String) {
        self.reason = reason
    }

    /// A decode its caller told to stop part-way (see `ImageDecoder.decodeFile(atPath:shrunkTo:filter:pixelLimit:until:)`).
    public static let stopped = ImageDecodeError(reason: "The decode was stopped before it finished")

    /// The reason.
    public var description: String { reason }
}

/// Why an image could not be encoded or written, in words a person can be shown.
public struct ImageEncodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A complete sentence, e.g. "Cannot write /tmp/a.png: Permission denied".
    public let reason: String

    /// An error with the given human-readable reason.
    public init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
