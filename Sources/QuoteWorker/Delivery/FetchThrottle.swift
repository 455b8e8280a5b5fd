/// Backpressure between the producer and the consumer: when replies cannot leave as fast as events
/// arrive (a slow or absent broker), fetching pauses instead of the producer queue (and memory)
/// growing, or the loop blocking on a full queue where it could not even hear a stop request.
/// Hysteresis keeps it from flapping: pause at `pauseAt` records waiting, resume at `resumeAt`.
struct FetchThrottle {
    enum Change: Equatable { case pause, resume }

    let pauseAt: Int
    let resumeAt: Int
    private(set) var isPaused = false

    init(pauseAt: Int) {
        self.pauseAt = max(1, pauseAt)
        resumeAt = self.pauseAt / 2
    }

    /// `waiting`: records queued in the producer plus those the worker holds for lack of room.
    mutating func change(waiting: Int) -> Change? {
        if !isPaused && waiting >= pauseAt {
            isPaused = true
            return .pause
        }
        if isPaused && waiting <= resumeAt {
            isPaused = false
            return .resume
        }
        return nil
    }
}
