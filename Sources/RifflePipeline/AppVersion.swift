/// Riffle's name and version, for what names the program that wrote a file: a thumbnail's
/// Software key, and the folder that records the files Riffle could not make a thumbnail of
/// (a later version, which may read them, tries them again); `riffle --version` prints it.
public enum AppVersion {
    public static let name = "Riffle"
    /// The release number, dotted decimal.
    public static let number = "0.1"
}
