package io.weir.nexmark.job;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.nexmark.queries.NexmarkQuery;
import java.time.Duration;

/** A Nexmark query as a job: events in, the query, results out exactly once. */
public final class QueryJob {
  private QueryJob() {}

  /** Adds the job's operators to {@code env} and checkpoints every {@code interval}. */
  public static <R> void build(
      StreamEnvironment env,
      NexmarkQuery<R> query,
      EventInput input,
      ResultOutput output,
      Duration interval) {
    env.enableCheckpointing(interval);
    output.write(query, query.apply(input.events(env)));
  }
}
