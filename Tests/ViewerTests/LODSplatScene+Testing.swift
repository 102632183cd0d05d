// The streamed levels' internals as the scene tests reach them (the scene draws them through
// `SplatLevelsOfDetail`; these tests check the `StreamedLevels` behind it).
@testable import SplatLOD
import SplatRender
@testable import Viewer

extension LODSplatScene {
    var stream: StreamedLevels { levels as! StreamedLevels }
    var selector: LODSelector { stream.selector }
    var store: LODChunkStore { stream.store }
    var assembly: PreparedSplats { stream.assembly }
    var shownLevels: [Int] { stream.shownLevels }
    var wantedLevels: [Int] { stream.wantedLevels }
    var lastAssemblyMs: Double { stream.lastAssemblyMs }
    var assemblies: Int { stream.assemblies }
    var visibilityMeasurements: Int { stream.visibilityMeasurements }
    var visibilityRefinements: Int { stream.visibilityRefinements }
}
