// TestSupport — shared helpers for the test targets.
//
// Job: slow, obvious reference implementations (rasterizer, splat renderer) that fast
// paths are tested against; image comparison (PSNR, max error) that writes actual and diff
// images on failure; locating ../shared/testdata.
import RenderCore
