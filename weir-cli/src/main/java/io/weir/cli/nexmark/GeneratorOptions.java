package io.weir.cli.nexmark;

import io.weir.cli.error.UserError;
import io.weir.nexmark.generator.GeneratorConfig;
import picocli.CommandLine.Option;

/** The options that say which stream the generator makes. */
final class GeneratorOptions {
  @Option(
      names = "--events",
      required = true,
      paramLabel = "N",
      description = "How many events (persons, auctions and bids 1:3:46).")
  long events;

  @Option(
      names = "--rate",
      paramLabel = "R",
      description = "Events per second of event time. Default: 10000")
  long eventsPerSecond = GeneratorConfig.DEFAULT_EVENTS_PER_SECOND;

  @Option(
      names = "--seed",
      paramLabel = "S",
      description = "Varies every event; the same seed makes the same events. Default: 0")
  long seed;

  GeneratorConfig config() {
    if (events < 1) {
      throw new UserError("--events must be at least 1, not " + events);
    }
    try {
      return GeneratorConfig.defaults().withEventsPerSecond(eventsPerSecond).withSeed(seed);
    } catch (IllegalArgumentException e) {
      throw new UserError("--rate: " + e.getMessage(), e);
    }
  }
}
