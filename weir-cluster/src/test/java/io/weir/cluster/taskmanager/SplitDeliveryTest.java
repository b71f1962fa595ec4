package io.weir.cluster.taskmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.EventLoopGroup;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ControlMessages;
import io.weir.cluster.rpc.ControlMessages.TaskReport;
import io.weir.cluster.rpc.EventLoops;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.MessageHandler;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.cluster.rpc.RpcServer;
import io.weir.cluster.rpc.SplitAssignments;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real task manager, registered with a job manager's end of the control connection that this test
 * speaks itself: splits an enumerator assigned never vanish on the way to a reader. Those that find
 * no subtask of theirs come back as that subtask's failure, which fails the attempt on the job
 * manager (and its enumerator starts again from the checkpoint its readers hold).
 */
class SplitDeliveryTest {
  private final Queue<Serializable> received = new ConcurrentLinkedQueue<>();
  private volatile RpcConnection taskManagerConnection;
  private EventLoopGroup network;
  private RpcServer jobManagerEnd;
  private TaskManager taskManager;

  @BeforeEach
  void start() throws Exception {
    network = EventLoops.create("split-delivery-test", 1);
    jobManagerEnd =
        RpcServer.bind(
            network,
            "127.0.0.1",
            0,
            "",
            Map.of(
                "taskmanager",
                new MessageHandler() {
                  @Override
                  public void onMessage(RpcConnection connection, Object message) {
                    taskManagerConnection = connection;
                    received.add((Serializable) message);
                  }
                }));
    taskManager =
        TaskManager.start(
            new TaskManagerOptions(
                new HostAndPort("127.0.0.1", jobManagerEnd.port()),
                1,
                "127.0.0.1",
                "",
                Duration.ofMillis(200)));
    await().atMost(Duration.ofSeconds(30)).until(() -> taskManagerConnection != null);
  }

  @AfterEach
  void stop() {
    if (taskManager != null) {
      taskManager.close();
    }
    if (jobManagerEnd != null) {
      jobManagerEnd.close();
    }
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void when_splitsArriveForAnAttemptNotDeployedHere_then_theSubtaskIsReportedFailed() {
    // given: a task manager that runs no attempt
    AttemptId attempt = new AttemptId("job-1", 0);

    // when: the splits of reader 2 of a source task reach it
    taskManagerConnection.send(
        new ControlMessages.Fenced(
            0,
            new ControlMessages.AssignSplits(
                attempt, "source-vertex", 2, SplitAssignments.encode(List.of()))));

    // then: the job manager hears that subtask failed, naming the attempt it missed
    TaskReport report =
        await().atMost(Duration.ofSeconds(30)).until(this::failureReport, found -> found != null);
    assertThat(report.attempt()).isEqualTo(attempt);
    assertThat(report.vertexId()).isEqualTo("source-vertex");
    assertThat(report.subtask()).isEqualTo(2);
    assertThat(report.cause()).contains("subtask 2 of source-vertex").contains("job-1#0");
  }

  private TaskReport failureReport() {
    for (Serializable message : received) {
      if (message instanceof TaskReport report && report.kind() == TaskReport.Kind.FAILED) {
        return report;
      }
    }
    return null;
  }
}
