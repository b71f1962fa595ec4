package io.weir.postgres.sink;

import java.time.Instant;

/**
 * One row of {@code pg_prepared_xacts}: a transaction prepared and not yet committed or rolled
 * back.
 */
public record PreparedTransaction(
    String globalId, Instant prepared, String owner, String database) {}
