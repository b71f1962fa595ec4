package io.weir.cluster.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.EventLoopGroup;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.EventLoops;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.RpcClient;
import io.weir.cluster.rpc.RpcServer;
import io.weir.runtime.startup.BesideStartStatus;
import io.weir.runtime.startup.BesideStartWork;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Whether the next attempt waits out the lease of a task manager lost without its word: only when
 * the attempt's subtasks there were told to start and its last heartbeat did not say that every one
 * had passed its start with nothing running beside it. On the registry's own bookkeeping, with a
 * clock the test moves.
 */
class LostTaskManagerWaitTest {
  private static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(3);
  private static final AttemptId EARLIER_ATTEMPT = new AttemptId("job", 0);
  private static final AttemptId ATTEMPT = new AttemptId("job", 1);

  private final MovableClock clock = new MovableClock();
  private final TaskManagerRegistry registry = new TaskManagerRegistry(HEARTBEAT_TIMEOUT, clock);
  private final EventLoopGroup network = EventLoops.create("test-network", 1);
  private RpcServer server;

  @BeforeEach
  void startServer() throws Exception {
    server =
        RpcServer.bind(network, "127.0.0.1", 0, "", Map.of("taskmanager", (from, message) -> {}));
  }

  @AfterEach
  void shutDown() {
    server.close();
    network.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void when_theLostOnesLastHeartbeatSaidQuiet_then_theNextAttemptDoesNotWait() throws Exception {
    // given: its heartbeats said first that a fence ran, then that all was quiet
    register("tm-quiet");
    startAttempt("tm-quiet");
    registry.heartbeat("tm-quiet", Map.of(ATTEMPT, BesideStartStatus.WORK_RUNNING));
    registry.heartbeat("tm-quiet", Map.of(ATTEMPT, BesideStartStatus.QUIET));

    // when: it is lost without its word
    registry.declareLost("tm-quiet", "killed");

    // then: the wait ends on a clock that stands still
    assertThat(registry.quietAfterMillis("tm-quiet", ATTEMPT)).isZero();
    assertThat(awaitEnding("tm-quiet").get(30, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void when_theLostOneWasNeverToldToStartTheAttempt_then_theNextAttemptDoesNotWait()
      throws Exception {
    // given: the attempt deployed there, its subtasks created but not started (the job manager
    // waits for every task manager's deployment before it starts any)
    register("tm-deployed");
    registry.heartbeat("tm-deployed", Map.of(ATTEMPT, BesideStartStatus.STARTING));

    // when: it is lost while the attempt still deploys elsewhere
    registry.declareLost("tm-deployed", "no heartbeat");

    // then: nothing of the attempt can have started there: the wait ends on a clock that stands
    // still
    assertThat(registry.quietAfterMillis("tm-deployed", ATTEMPT)).isZero();
    assertThat(awaitEnding("tm-deployed").get(30, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void when_theLostOnesLastHeartbeatSaidAFenceRuns_then_theWaitLastsPastLeaseAndBound()
      throws Exception {
    assertWaitsOutLeaseAndBound(Map.of(ATTEMPT, BesideStartStatus.WORK_RUNNING));
  }

  @Test
  void when_aSubtaskOfTheLostOneWasStillStarting_then_theWaitLastsPastLeaseAndBound()
      throws Exception {
    assertWaitsOutLeaseAndBound(Map.of(ATTEMPT, BesideStartStatus.STARTING));
  }

  @Test
  void when_onlyAnEarlierAttemptWasReportedQuiet_then_theWaitLastsPastLeaseAndBound()
      throws Exception {
    assertWaitsOutLeaseAndBound(Map.of(EARLIER_ATTEMPT, BesideStartStatus.QUIET));
  }

  @Test
  void when_aJobRestartsManyTimes_then_theReportsKeptStayBoundedAndQuietLostOnesHoldNothing()
      throws Exception {
    // given: a task manager that runs every attempt of the job, and each attempt fails because
    // another task manager of it, quiet by then, is lost
    int attempts = 40;
    register("tm-stays");
    for (int number = 0; number < attempts; number++) {
      AttemptId attempt = new AttemptId("job", number);
      String lostOne = "tm-lost-" + number;
      register(lostOne);
      registry.heartbeat("tm-stays", Map.of(attempt, BesideStartStatus.STARTING));
      registry.heartbeat("tm-stays", Map.of(attempt, BesideStartStatus.QUIET));
      registry.heartbeat(lostOne, Map.of(attempt, BesideStartStatus.QUIET));

      // when: the attempt fails, the staying one ends it (its heartbeats leave it out from then
      // on) and confirms; the job awaits the attempt's ending
      registry.declareLost(lostOne, "killed");
      registry.heartbeat("tm-stays", Map.of());
      AttemptEnding ending =
          AttemptEnding.ofAttempt(attempt, List.of("tm-stays", lostOne), registry);
      ending.confirmed(attempt, "tm-stays");

      // then: the quiet lost one does not hold the next attempt on a clock that stands still
      assertThat(awaitInBackground(ending).get(10, TimeUnit.SECONDS)).isTrue();
      // A heartbeat sent just before the TasksEnded arrives after it.
      registry.heartbeat("tm-stays", Map.of(attempt, BesideStartStatus.QUIET));
      clock.advance(HEARTBEAT_TIMEOUT.plus(BesideStartWork.WORK_BOUND));
      registry.heartbeat("tm-stays", Map.of());
    }

    // then: of all the attempts, the job manager keeps what the late heartbeat put back of the
    // last one, and no lost task manager once their leases and bounds passed
    registry.checkHeartbeats();
    assertThat(registry.get("tm-stays").besideStart)
        .containsOnlyKeys(new AttemptId("job", attempts - 1));
    assertThat(registry.lostRemembered()).isZero();
  }

  private void assertWaitsOutLeaseAndBound(Map<AttemptId, BesideStartStatus> lastReport)
      throws Exception {
    // given: the attempt was told to start there
    register("tm-lost");
    startAttempt("tm-lost");
    long lastHeartbeat = clock.millis();
    registry.heartbeat("tm-lost", lastReport);

    // when
    registry.declareLost("tm-lost", "killed");
    CompletableFuture<Boolean> ended = awaitEnding("tm-lost");

    // then: not before its lease ended and a fence sent just before could land
    long quietAfter =
        lastHeartbeat + HEARTBEAT_TIMEOUT.toMillis() + BesideStartWork.WORK_BOUND.toMillis();
    assertThat(registry.quietAfterMillis("tm-lost", ATTEMPT)).isEqualTo(quietAfter);
    clock.advance(Duration.ofMillis(quietAfter - clock.millis() - 1));
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(5))
        .until(() -> !ended.isDone());
    clock.advance(Duration.ofMillis(2));
    await().atMost(Duration.ofSeconds(10)).until(ended::isDone);
    assertThat(ended.get()).isTrue();
  }

  /** Tells the task manager to start the attempt's subtasks, as the job manager does. */
  private void startAttempt(String taskManagerId) {
    new RemoteTaskManager(ATTEMPT, registry.get(taskManagerId), null, null, id -> null).start();
  }

  private CompletableFuture<Boolean> awaitEnding(String taskManagerId) {
    return awaitInBackground(AttemptEnding.ofAttempt(ATTEMPT, List.of(taskManagerId), registry));
  }

  private static CompletableFuture<Boolean> awaitInBackground(AttemptEnding ending) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return ending.await(Duration.ofMinutes(3), () -> false);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
          }
        });
  }

  private void register(String id) throws Exception {
    registry.register(
        new RegisteredTaskManager(
            id,
            1,
            new HostAndPort("127.0.0.1", 1),
            ProcessHandle.current().pid(),
            new TaskManagerConnection(
                RpcClient.connect(
                    network,
                    "the job manager",
                    new HostAndPort("127.0.0.1", server.port()),
                    "taskmanager",
                    "",
                    (from, message) -> {}),
                1,
                () -> true),
            clock.millis()));
  }
}
