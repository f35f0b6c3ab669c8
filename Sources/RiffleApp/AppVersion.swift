/// Riffle's name and version, for what names the program that wrote a file: a thumbnail's
/// Software key, and the folder that records the files Riffle could not make a thumbnail of
/// (a later version, which may read them, tries them again).
enum AppVersion {
    static let name = "Riffle"
    static let number = "0.1"
}
