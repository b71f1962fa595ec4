package io.weir.postgres.sink;

import java.io.Serializable;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Sets the parameters of a prepared statement from one record. Called on the task thread for each
 * record, before the statement is added to the batch; it must only set parameters (the sink adds
 * the batch and executes it). Serializable, because the sink ships with the job.
 */
@FunctionalInterface
public interface StatementBinder<T> extends Serializable {
  void bind(PreparedStatement statement, T record) throws SQLException;
}
