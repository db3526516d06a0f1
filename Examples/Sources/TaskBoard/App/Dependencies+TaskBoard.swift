import Canopy

// What TaskBoard reaches outside its stores, as Canopy dependencies: the program uses the defaults (and
// the remote `Launcher` opens for the run); tests override them with `withDependencies`.

/// The clock of every delay in the tree.
struct SchedulerKey: DependencyKey {
    static let defaultValue: any DelayScheduler = DispatchDelayScheduler()
}

/// The server the board syncs with. The default keeps what is pushed in memory only.
struct RemoteServiceKey: DependencyKey {
    static let defaultValue = RemoteService(
        configuration: RemoteService.Configuration(),
        sleeper: Sleeper(scheduler: SchedulerKey.defaultValue)
    )
}

/// The folder of `tasks.sqlite` and `remote.json` when `--data-dir` is not given.
struct DataDirectoryKey: DependencyKey {
    static let defaultValue = DataDirectory.standard()
}

extension Dependencies {
    var scheduler: any DelayScheduler {
        get { self[SchedulerKey.self] }
        set { self[SchedulerKey.self] = newValue }
    }

    var remote: RemoteService {
        get { self[RemoteServiceKey.self] }
        set { self[RemoteServiceKey.self] = newValue }
    }

    var dataDirectory: DataDirectory {
        get { self[DataDirectoryKey.self] }
        set { self[DataDirectoryKey.self] = newValue }
    }
}
