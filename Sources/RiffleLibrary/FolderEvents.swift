/// The folder events of the burst under way, folded into what each folder holds now once the
/// burst ends (`ChangeBurst`): a file made, written and renamed in one burst is one arrival,
/// whatever the order the kernel reported it in. A file written to and not closed by the end
/// of the burst is still growing (`FolderChange.growing`); its close, in a later burst, says
/// it is whole.
///
/// Pure but for what it is handed: the file system is asked only through the closures of
/// `take`, so tests drive it with events and answers of their own.
struct FolderEvents: Sendable {
    /// Names touched in each folder: what they hold is asked when the burst ends.
    private var touched: [String: Set<String>] = [:]
    /// Names written (written to, closed after writing, or moved in over any file of that name).
    private var written: [String: Set<String>] = [:]
    /// Names written to and not closed since: still being written.
    private var growing: [String: Set<String>] = [:]
    /// Names moved away, by the cookie that pairs them with their arrival.
    private var movedOut: [UInt32: (folder: String, name: String)] = [:]
    /// Moves within one folder, `from` → `to`, in order.
    private var moves: [String: [FolderChange.Rename]] = [:]
    /// Folders to list anew (events were lost, or the folder itself went).
    private var relist: Set<String> = []
    /// The burst under way; nil when there is none.
    private(set) var burst: ChangeBurst?

    /// When the burst under way is to be taken in; nil when there is none.
    var deadline: Double? { burst?.deadline }

    /// Folds `events`, taken at clock time `now`, into the burst (starting one if needed).
    mutating func record(_ events: [FolderWatcher.Event], at now: Double) {
        guard !events.isEmpty else { return }
        if burst == nil { burst = ChangeBurst(at: now) } else { burst?.add(at: now) }
        for event in events {
            switch event.kind {
            case .relist:
                relist.insert(event.folder)
            case .folderArrived:
                // Not a photo: a tree's library takes the folder in (`LiveFolders`).
                continue
            case .created:
                touched[event.folder, default: []].insert(event.name)
            case .deleted:
                touched[event.folder, default: []].insert(event.name)
                growing[event.folder]?.remove(event.name)
            case .modified:
                touched[event.folder, default: []].insert(event.name)
                written[event.folder, default: []].insert(event.name)
                growing[event.folder, default: []].insert(event.name)
            case .written:
                touched[event.folder, default: []].insert(event.name)
                written[event.folder, default: []].insert(event.name)
                growing[event.folder]?.remove(event.name)
            case let .movedOut(cookie):
                touched[event.folder, default: []].insert(event.name)
                growing[event.folder]?.remove(event.name)
                movedOut[cookie] = (event.folder, event.name)
            case let .movedIn(cookie):
                touched[event.folder, default: []].insert(event.name)
                written[event.folder, default: []].insert(event.name)
                growing[event.folder]?.remove(event.name)
                if let from = movedOut.removeValue(forKey: cookie), from.folder == event.folder {
                    moves[event.folder, default: []].append(FolderChange.Rename(from: from.name, to: event.name))
                }
            }
        }
    }

    /// The burst's changes when its deadline has come at `now` (and the burst is then over);
    /// nil before, or when there is no burst.
    /// - Parameters:
    ///   - listed: the names the library lists in a folder now.
    ///   - isPhoto: whether a name in a folder holds a photo now (`PhotoLibrary.isPhoto`).
    ///   - listing: the photo names a folder holds now, nil when it cannot be listed (gone).
    mutating func take(
        at now: Double, listed: (String) -> [String], isPhoto: (_ folder: String, _ name: String) -> Bool,
        listing: (String) -> [String]?
    ) -> [FolderChange]? {
        guard let burst, now >= burst.deadline else { return nil }
        var changes: [FolderChange] = []
        for folder in Set(touched.keys).union(relist).sorted() {
            var change = FolderChange(folder: folder)
            if relist.contains(folder) {
                let names = Set(listing(folder) ?? [])
                change.arrived = names
                change.departed = Set(listed(folder)).subtracting(names)
            } else {
                for name in touched[folder] ?? [] {
                    if isPhoto(folder, name) { change.arrived.insert(name) } else { change.departed.insert(name) }
                }
            }
            change.rewritten = (written[folder] ?? []).intersection(change.arrived)
            change.growing = (growing[folder] ?? []).intersection(change.rewritten)
            change.renamed = (moves[folder] ?? []).filter { change.departed.contains($0.from) && change.arrived.contains($0.to) }
            changes.append(change)
        }
        self = FolderEvents()
        return changes
    }
}
