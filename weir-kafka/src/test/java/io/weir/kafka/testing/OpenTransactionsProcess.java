package io.weir.kafka.testing;

import io.weir.kafka.transaction.PendingTransaction;
import io.weir.kafka.transaction.TransactionResumer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A child JVM that opens one transaction per transactional id, sends and flushes records in it,
 * reports each transaction's producer id and epoch, and then waits to be killed, like a job killed
 * with {@code kill -9} after a pre-commit. Tests start it with {@link #start} and end it with
 * {@link #kill}.
 */
public final class OpenTransactionsProcess implements AutoCloseable {
  private static final String PENDING = "PENDING";
  private static final String READY = "READY";

  private final Process process;
  private final Map<String, PendingTransaction> transactions;

  private OpenTransactionsProcess(Process process, Map<String, PendingTransaction> transactions) {
    this.process = process;
    this.transactions = transactions;
  }

  /**
   * Starts the child and returns once all its transactions are open with flushed records; each
   * record's value is {@code <transactional id>-<n>}.
   */
  public static OpenTransactionsProcess start(
      String bootstrapServers,
      String topic,
      int recordsPerTransaction,
      Duration transactionTimeout,
      String... transactionalIds)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of("-Xmx256m", "-cp", testClasspath(), OpenTransactionsProcess.class.getName()));
    command.addAll(
        List.of(
            bootstrapServers,
            topic,
            Integer.toString(recordsPerTransaction),
            Long.toString(transactionTimeout.toMillis())));
    command.addAll(List.of(transactionalIds));
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Map<String, PendingTransaction> transactions = new HashMap<>();
    BufferedReader output =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    for (String line = output.readLine(); !READY.equals(line); line = output.readLine()) {
      if (line == null) {
        throw new IllegalStateException("child producer exited with " + process.waitFor());
      }
      String[] fields = line.split(" ");
      if (fields[0].equals(PENDING)) {
        transactions.put(
            fields[1],
            new PendingTransaction(
                fields[1], Long.parseLong(fields[2]), Short.parseShort(fields[3])));
      }
    }
    return new OpenTransactionsProcess(process, transactions);
  }

  public PendingTransaction transaction(String transactionalId) {
    return transactions.get(transactionalId);
  }

  /** SIGKILL, and wait for the process to be gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }

  private static String testClasspath() {
    String surefire = System.getProperty("surefire.test.class.path");
    return surefire != null ? surefire : System.getProperty("java.class.path");
  }

  /** Arguments: bootstrap servers, topic, records per transaction, timeout ms, ids... */
  public static void main(String[] arguments) throws Exception {
    List<KafkaProducer<String, String>> producers = new ArrayList<>();
    for (int i = 4; i < arguments.length; i++) {
      String transactionalId = arguments[i];
      Properties config = KafkaTestClients.producerConfig(arguments[0]);
      config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
      config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, arguments[3]);
      KafkaProducer<String, String> producer = new KafkaProducer<>(config);
      producers.add(producer);
      producer.initTransactions();
      producer.beginTransaction();
      for (int n = 0; n < Integer.parseInt(arguments[2]); n++) {
        producer.send(new ProducerRecord<>(arguments[1], "key-" + n, transactionalId + "-" + n));
      }
      producer.flush();
      PendingTransaction pending = TransactionResumer.pendingTransactionOf(producer);
      System.out.println(
          String.join(
              " ",
              PENDING,
              transactionalId,
              Long.toString(pending.producerId()),
              Short.toString(pending.epoch())));
    }
    System.out.println(READY);
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
