// SceneLoader+MixedLevels — levels of detail inside a mixed scene: an object that is a capture
// large enough to get levels (as `open` decides for a capture alone: over 300k splats, or any
// under a named budget) is drawn through a tree built for it (from the cache when there is one),
// so the scene's one budget can be shared among its objects.
import Foundation
import RenderCore
import SceneIO
import SplatLOD

extension SceneLoader {
    /// Gives `model` (object `file` of the scene JSON `json`) its levels of detail when its
    /// splats get them under `lod`: built in memory, or read from `lod.treeCache`.
    static func addLevels(to model: inout ObjectModel, file: String, in json: String, lod: LODOptions, cancelled: @escaping @Sendable () -> Bool) throws {
        guard case .splats(let cloud) = model.scene, lod.drawsLevels(captureSplats: cloud.count), cloud.count > 1 else { return }
        let path = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: json).deletingLastPathComponent()).path
        do {
            let made = try CaptureLOD.make(cloud, path: path, cache: lod.treeCache, cancelled: cancelled)
            model.tree = made.sog
            model.warnings += made.notes
        } catch let e as LODMemoryError {
            model.warnings.append("\(file): drawn whole in the scene (\(e))")
        }
    }
}
