import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock on the data folder (`flock` on the folder itself, so no file is added), held while a
/// TaskBoard process opens the board: checks the database, sets a broken one aside, creates it and brings
/// its schema up to date.
///
/// Without it, a first run could check the database another first run was creating at that moment, find
/// it unreadable, and move it aside from under the other process, which then wrote into the wrong file
/// ("no such table: tasks"). Opening is short, so the lock is held for moments only; a process that
/// already has the board open does not hold it.
final class FolderLock {
    private let descriptor: Int32

    /// Takes the lock on `folder`, waiting for another process's open to finish, for at most `timeout`
    /// seconds; after that it goes on without the lock, as a run did before there was one.
    init(_ folder: URL, timeout: TimeInterval) {
        descriptor = open(folder.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    deinit {
        // Closing the descriptor releases the lock.
        if descriptor >= 0 {
            close(descriptor)
        }
    }
}
