package io.weir.lab.nemesis;

import io.weir.examples.SeedRecords;
import io.weir.examples.postgres.TotalsTables;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedRecordsRead;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The checks of the keyed running count's committed output ({@code word,count,id}) beyond its ids.
 *
 * <p><b>Counts off the reference.</b> The reference is computed from the input alone: the feed keys
 * each record by its word, so all of a word's records sit in one input partition, and the job
 * counts them in that partition's offset order (one source subtask reads it, and the keyed exchange
 * keeps the order of one sender). So the input record that is a word's k-th in its partition must
 * come out with count k, and a record whose committed count differs is off: a lost or replayed
 * state, or a record counted twice. With every id exactly once and no count off, each word's
 * committed counts are exactly 1..n.
 *
 * <p><b>Per-key order.</b> All of a word's records leave through one sink subtask, in the order the
 * count made them, and that subtask flushes one checkpoint's transaction before it writes the next
 * one's records; so within one output partition a word's committed records must follow each other
 * in increasing count. A record whose count is not above the word's previous one in its partition
 * breaks the order. Across output partitions the sink keeps no order, and none is checked.
 *
 * <p><b>PostgreSQL's table</b> ({@code --sink postgres}) holds one row per input record with the
 * word's count, checked against the same reference; a table keeps no order, so none is checked
 * there.
 *
 * <p>Fed input first ({@link #input}), then output ({@link #output} or {@link #row}), each
 * partition by partition in offset order, on one thread.
 */
final class RunningCountCheck {
  /** What the checks found: records whose count is off the reference, records out of order. */
  record Result(long countsOff, long orderBroken) {}

  private final Map<String, Integer> partitionOfWord = new HashMap<>();
  private final Map<String, Long> countOfWord = new HashMap<>();
  private final Map<Long, Long> expectedCountOfId = new HashMap<>();
  private final Map<Integer, Map<String, Long>> lastCountInPartition = new HashMap<>();
  private long countsOff;
  private long orderBroken;

  /** Reads the input and the {@code read_committed} output to their ends and checks them. */
  static Result read(String bootstrap, String inputTopic, String outputTopic) {
    RunningCountCheck check = new RunningCountCheck();
    new OutputVerifier(bootstrap, inputTopic)
        .forEachRecord(false, record -> check.input(record.partition(), value(record)));
    new OutputVerifier(bootstrap, outputTopic)
        .forEachRecord(true, record -> check.output(record.partition(), value(record)));
    return check.result();
  }

  /**
   * Reads the input topic to its end and the committed rows of {@code tables}' updates table, and
   * checks each row's count.
   */
  static Result readTable(String bootstrap, String inputTopic, String jdbcUrl, TotalsTables tables)
      throws SQLException {
    RunningCountCheck check = new RunningCountCheck();
    new OutputVerifier(bootstrap, inputTopic)
        .forEachRecord(false, record -> check.input(record.partition(), value(record)));
    try (Connection connection = DriverManager.getConnection(jdbcUrl);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT id, updates FROM " + tables.updates())) {
      while (rows.next()) {
        check.row(rows.getLong(1), rows.getLong(2));
      }
    }
    return check.result();
  }

  /** The next input record of {@code partition}, {@code word,frequency,id}. */
  void input(int partition, String record) {
    Long id = SeedRecordsRead.idOf(record);
    if (id == null) {
      return;
    }
    String word = SeedRecords.word(record);
    Integer earlier = partitionOfWord.putIfAbsent(word, partition);
    if (earlier != null && earlier != partition) {
      throw new IllegalStateException(
          "word "
              + word
              + " is in input partitions "
              + earlier
              + " and "
              + partition
              + ": its running counts have no order to check against");
    }
    expectedCountOfId.put(id, countOfWord.merge(word, 1L, Long::sum));
  }

  /** The next committed output record of {@code partition}, {@code word,count,id}. */
  void output(int partition, String record) {
    Long id = SeedRecordsRead.idOf(record);
    if (id == null) {
      countsOff++;
      return;
    }
    String word = SeedRecords.word(record);
    long count = SeedRecords.frequency(record); // the middle field, which the count replaced
    row(id, count);
    Long previous =
        lastCountInPartition.computeIfAbsent(partition, each -> new HashMap<>()).put(word, count);
    if (previous != null && count <= previous) {
      orderBroken++;
    }
  }

  /** A committed row of the updates table: input record {@code id} counted {@code count}. */
  void row(long id, long count) {
    if (!Long.valueOf(count).equals(expectedCountOfId.get(id))) {
      countsOff++;
    }
  }

  Result result() {
    return new Result(countsOff, orderBroken);
  }

  private static String value(ConsumerRecord<byte[], byte[]> record) {
    return record.value() == null ? "" : new String(record.value(), StandardCharsets.UTF_8);
  }
}
