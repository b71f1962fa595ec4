package io.weir.cluster.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.rpc.AttemptId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The wait between attempts: a task manager that confirms ends its part at once, one gone without
 * its word ends it only once nothing it may have started can land (its lease and the fence's bound
 * passed on the job manager's clock).
 */
class AttemptEndingTest {
  private static final AttemptId ATTEMPT = new AttemptId("job", 0);

  private final MovableClock clock = new MovableClock();
  private final Map<String, AttemptEnding.Ending> seen = new ConcurrentHashMap<>();
  private final Map<String, Long> quietAfter = new ConcurrentHashMap<>();

  @Test
  void when_aTaskManagerIsGoneWithoutItsWord_then_theWaitLastsUntilItsFencesCannotLand()
      throws Exception {
    // given: two task managers of the attempt; one confirms, the other is gone, and what it may
    // have started can land until 35 s from now
    AttemptEnding ending = ending(List.of("tm-confirms", "tm-gone"));
    ending.confirmed(ATTEMPT, "tm-confirms");
    seen.put("tm-gone", AttemptEnding.Ending.GONE);
    quietAfter.put("tm-gone", clock.millis() + 35_000);

    // when
    CompletableFuture<Boolean> ended = awaitInBackground(ending);

    // then: the wait goes on until the job manager's clock passed that time
    clock.advance(Duration.ofSeconds(34));
    await()
        .during(Duration.ofSeconds(1))
        .atMost(Duration.ofSeconds(5))
        .until(() -> !ended.isDone());
    clock.advance(Duration.ofSeconds(2));
    await().atMost(Duration.ofSeconds(10)).until(ended::isDone);
    assertThat(ended.get()).isTrue();
  }

  @Test
  void when_everyTaskManagerConfirms_then_theWaitEndsWithoutWaitingForAnyLease() throws Exception {
    // given
    AttemptEnding ending = ending(List.of("tm-1", "tm-2"));
    quietAfter.put("tm-1", clock.millis() + 35_000);

    // when
    ending.confirmed(ATTEMPT, "tm-1");
    ending.confirmed(ATTEMPT, "tm-2");

    // then
    assertThat(awaitInBackground(ending).get()).isTrue();
  }

  private AttemptEnding ending(List<String> taskManagers) {
    return new AttemptEnding(
        "attempt " + ATTEMPT,
        ATTEMPT,
        taskManagers,
        () ->
            new AttemptEnding.Sightings() {
              @Override
              public AttemptEnding.Ending of(String id) {
                return seen.getOrDefault(id, AttemptEnding.Ending.RUNNING);
              }

              @Override
              public long quietAfterMillis(String id) {
                return quietAfter.getOrDefault(id, 0L);
              }
            },
        clock);
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
}
