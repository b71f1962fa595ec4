package io.weir.lab.nemesis;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Injects faults one after another for a given time: each lasts a random few seconds, is healed,
 * and is followed by a quiet stretch in which the job can recover, so that the checker can tell how
 * long the committed output stalled after each. The first faults go through every kind asked for,
 * in a random order, so that even a short run injects each kind once, pauses and kills once per
 * role of process (it runs over its time if it must); later kinds are drawn at random. Every
 * injection and heal is logged with its time.
 */
final class Nemesis {
  private final FaultInjector injector;
  private final List<FaultKind> kinds;
  private final Random random;
  private final NemesisLog log;
  private final Clock clock;

  Nemesis(FaultInjector injector, List<FaultKind> kinds, Random random, NemesisLog log) {
    this.injector = injector;
    this.kinds = List.copyOf(kinds);
    this.random = random;
    this.log = log;
    this.clock = log.clock();
  }

  /** Injects faults until {@code duration} has passed; returns them in order. */
  List<Fault> run(Duration duration) throws Exception {
    Instant deadline = clock.instant().plus(duration);
    List<FaultKind> firstRound = new ArrayList<>();
    for (FaultKind kind : kinds) {
      // Pauses and kills once per role of process (job managers, task managers, brokers, ...).
      firstRound.addAll(Collections.nCopies(injector.firstRound(kind), kind));
    }
    Collections.shuffle(firstRound, random);
    List<Fault> faults = new ArrayList<>();
    // Past the deadline only to inject each kind once: a short run still sees them all.
    while (clock.instant().isBefore(deadline) || faults.size() < firstRound.size()) {
      FaultKind kind =
          faults.size() < firstRound.size()
              ? firstRound.get(faults.size())
              : kinds.get(random.nextInt(kinds.size()));
      faults.add(injectAndHeal(kind, faults.size() + 1));
      // A quiet stretch: the recovery from this fault is measured apart from the next one.
      Thread.sleep(injector.seconds(5, 10).toMillis());
    }
    return faults;
  }

  private Fault injectAndHeal(FaultKind kind, int number) throws Exception {
    Duration length = injector.length(kind);
    Instant start = clock.instant();
    FaultInjector.ActiveFault fault = injector.inject(kind);
    log.event(
        "fault "
            + number
            + ": "
            + kind.key()
            + " "
            + fault.target()
            + " for "
            + length.toSeconds()
            + " s");
    Thread.sleep(length.toMillis());
    fault.heal();
    Instant end = clock.instant();
    log.event(
        "fault "
            + number
            + " healed: "
            + kind.key()
            + " "
            + fault.target()
            + " after "
            + Duration.between(start, end).toSeconds()
            + " s");
    return new Fault(kind, fault.target(), start, end);
  }
}
