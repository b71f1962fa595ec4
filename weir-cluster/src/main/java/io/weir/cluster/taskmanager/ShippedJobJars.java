package io.weir.cluster.taskmanager;

import io.weir.cluster.JarStore;
import io.weir.cluster.JobCode;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.JobJar;
import java.io.IOException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job jars shipped to a task manager with its deployments, kept while it runs: a redeployment
 * after a failover names the jar but does not send it again. Called on the task manager's control
 * thread; {@link #deleteAll} once it closes.
 */
final class ShippedJobJars {
  private static final Logger LOG = LoggerFactory.getLogger(ShippedJobJars.class);

  private final String taskManagerId;
  private final JarStore jars = JarStore.temporary("weir-taskmanager-jars");

  ShippedJobJars(String taskManagerId) {
    this.taskManagerId = taskManagerId;
  }

  /**
   * The code the deployed subtasks run: the class path for a job without a jar, else the jar the
   * deployment ships (stored first) or one shipped before.
   *
   * @throws IOException when the shipped jar cannot be stored
   * @throws IllegalStateException when the deployment names a jar never shipped here
   */
  JobCode codeOf(ControlMessages.DeployTasks deploy) throws IOException {
    JobJar jar = deploy.submission().jar();
    if (jar == null) {
      return JobCode.classPath();
    }
    Path file;
    if (deploy.jar() != null) {
      file = jars.store(jar, deploy.jar());
      LOG.info(
          "Stored job jar {} ({} bytes, SHA-256 {})",
          jar.fileName(),
          deploy.jar().length,
          jar.sha256());
    } else {
      file =
          jars.find(jar)
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "The job jar "
                              + jar.fileName()
                              + " was not shipped to "
                              + taskManagerId));
    }
    return JobCode.fromJar(jar, file);
  }

  void deleteAll() {
    jars.deleteAll();
  }
}
