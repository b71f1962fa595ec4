package io.weir.cluster.rpc;

import java.io.Serializable;

/** One attempt to run a job on the cluster; messages of an older attempt are ignored. */
public record AttemptId(String jobId, int attempt) implements Serializable {
  @Override
  public String toString() {
    return jobId + "#" + attempt;
  }
}
