package io.weir.lab.nemesis;

import java.nio.file.Path;
import java.util.List;

/**
 * Where the nemesis lab's job runs: one job process on a host of its own ({@link JobSupervisor}),
 * or a highly available cluster whose processes each have a host ({@link NemesisCluster}). The
 * fault injector finds its targets here; the lab asks it whether the job still runs.
 *
 * <p>Methods are called from the nemesis thread and the lab's main thread; implementations are
 * thread-safe. {@link #close} ends every process it started and may block until they ended.
 */
interface JobDeployment extends AutoCloseable {
  /** The hosts whose processes read and write Kafka for the job: what a partition cuts. */
  List<LabHost> kafkaClientHosts();

  /**
   * The job's processes the nemesis may pause or kill, in groups of one role each (the job, the job
   * managers, the task managers, ZooKeeper), so that it can go through the roles in turn.
   */
  List<List<JobSupervisor>> processGroups();

  /** Whether the job should be running now (for the output's settling); never blocks long. */
  boolean runs();

  /** Where to look when the job does not run or commits nothing: a log or a directory of logs. */
  Path log();

  /** How often one of the job's processes ended without the nemesis killing it. */
  int unexpectedExits();

  @Override
  void close() throws InterruptedException;
}
