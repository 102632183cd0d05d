// Workers — every thread the program starts, and the one lock they share.
//
// Job: `BackgroundThread`, a named thread that runs a loop until stopped and is joined with a
// bounded wait (pose sources, the webcam, video walls, streamed chunks, thumbnails, drops,
// screenshots); `WorkerPool`, the renderers' fork-join pool, whose helpers are background
// threads too; `Locked`, state behind a pthread mutex with a condition to wait on. One lock
// kind everywhere: ThreadSanitizer (`make sanitize`) sees pthread mutexes, not the futex of
// `Synchronization.Mutex`. `Locked` has `Mutex`'s `sending` shape, so the compiler checks what
// crosses it; locks and conditions are used nowhere else (`Atomic` counters are fine: TSan
// sees them). Two audited exceptions hold the module's unchecked `Sendable`: `Locked` itself
// and `ForkJoinJob`, the pool's hand-over of a job to its helpers between two barriers.
//
// Contract: a thread never outlives its owner unseen — owners stop (and join) their threads
// when they go; a thread's body holds no strong reference to the object that owns it (or the
// owner stops it explicitly before letting go).
