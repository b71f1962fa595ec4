package io.weir.lab;

/**
 * Where a lab job's output is read and counted by record id: the output topic, or the database
 * table of a job with a PostgreSQL sink. Read from the lab's thread, between and after job runs.
 */
public interface JobOutput {
  /**
   * How often each id appears; {@code committedOnly} as a {@code read_committed} reader (a database
   * reader only ever sees committed rows).
   */
  OutputVerifier.Reading read(boolean committedOnly) throws Exception;
}
