package io.weir.runtime.task;

/** A task whose head operator reads one input (over any number of channels, as after a union). */
public final class OneInputStreamTask extends InputGateTask {
  public OneInputStreamTask(TaskDeployment deployment) {
    super(deployment, deployment.gate().channels());
  }

  @Override
  protected void processRecord(int channel, Object record, long timestamp) throws Exception {
    head.processElement(record, timestamp);
  }
}
