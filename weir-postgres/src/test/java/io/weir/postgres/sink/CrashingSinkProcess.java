package io.weir.postgres.sink;

import io.weir.runtime.failpoint.FailpointNames;
import java.nio.file.Path;

/**
 * A process that runs one checkpoint of the exactly-once sink through every step of the protocol,
 * passing a failpoint at each, so that a test arms one with {@code -Dweir.failpoints=NAME=halt} and
 * the process dies there like {@code kill -9}: records written ({@code checkpoint.trigger}),
 * prepared ({@code task.snapshot.after}), checkpoint stored, then {@code sink.commit.before} and
 * {@code sink.commit.after} around the commit.
 *
 * <p>Arguments: JDBC URL, table, state file, number of records (ids 0..n-1 in checkpoint 1).
 */
public final class CrashingSinkProcess {
  private CrashingSinkProcess() {}

  public static void main(String[] args) throws Exception {
    SinkDriver driver = SinkDriver.start(args[0], args[1], Path.of(args[2]));
    driver.write(0, Long.parseLong(args[3]));
    driver.failpoints().hit(FailpointNames.CHECKPOINT_TRIGGER);
    driver.snapshot(1);
    driver.failpoints().hit(FailpointNames.TASK_SNAPSHOT_AFTER);
    driver.storeCheckpoint(Path.of(args[2]));
    driver.notifyComplete(1);
    driver.close();
  }
}
