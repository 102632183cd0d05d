// BackgroundSceneLoads — the scene screen's one background load at a time: a dropped file (or the
// library's choice) opening while the current scene stays, or the shown capture's levels of detail
// being built while it is drawn whole. Polled once a frame; its outcome is the screen's to apply.
import Foundation
import RenderCore
import Viewer

/// The load in progress, if any. Frame loop only.
struct BackgroundSceneLoads {
    /// What a finished load brings.
    enum Outcome {
        /// A scene to show: a new one, or (`levelsOfDetail`) the shown capture with its levels;
        /// `wants`: its levels of detail to build next (`startLevels`, once the scene is shown).
        case loaded(Scene, source: SceneSource?, path: String, levelsOfDetail: Bool, notes: [String], wants: LevelOfDetailJob?)
        case failed(String, path: String, levelsOfDetail: Bool)
    }

    /// The load in progress.
    private(set) var loader: SceneDropLoader?

    /// Starts loading `path`; a load in progress is dropped.
    mutating func open(_ path: String, screen: ScreenGeometry, options: SceneLoader.ModelOptions) {
        loader = SceneDropLoader(path: path, screen: screen, options: options)
    }

    /// Starts `job`: the shown capture's levels of detail.
    mutating func startLevels(_ job: LevelOfDetailJob) {
        loader = SceneDropLoader(levelsOf: job)
        let meanwhile = job.isOutOfCore ? "out of core; a subsample is drawn" : "drawn whole"
        FileHandle.standardError.write(Data("splatframe: building levels of detail for \(job.name) (\(meanwhile) until they are ready)\n".utf8))
    }

    /// The fraction loaded, what loads and a line on where it is, while a load is in progress.
    var progress: (fraction: Double, path: String, levelsOfDetail: Bool, detail: String?)? {
        guard let loader, case .loading(let fraction) = loader.state() else { return nil }
        return (fraction, loader.path, loader.isLevelOfDetail, loader.detail())
    }

    /// The finished load's outcome, once (nil while loading or idle).
    mutating func poll() -> Outcome? {
        guard let current = loader else { return nil }
        let outcome: Outcome
        switch current.state() {
        case .loading: return nil
        case .loaded(let scene, let source, let job, let notes):
            outcome = .loaded(scene, source: source, path: current.path, levelsOfDetail: current.isLevelOfDetail, notes: notes, wants: job)
        case .failed(let reason):
            outcome = .failed(reason, path: current.path, levelsOfDetail: current.isLevelOfDetail)
        }
        loader = nil
        return outcome
    }
}
