package io.weir.cli.kafka;

import io.weir.cli.error.UserError;
import io.weir.kafka.transaction.BrokerUnreachableException;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.kafka.transaction.OpenTransaction;
import io.weir.kafka.transaction.TransactionalIds;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code weir kafka transactions}: open transactions, and aborting lingering ones. */
@Command(
    name = "transactions",
    description = "List open transactions; abort lingering ones with --abort or --abort-prefix.")
final class KafkaTransactionsCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin BootstrapOption bootstrap;

  @ArgGroup(exclusive = true)
  Abort abort;

  static final class Abort {
    @Option(names = "--abort", paramLabel = "ID", description = "Abort the transaction of ID.")
    String transactionalId;

    @Option(
        names = "--abort-prefix",
        paramLabel = "PREFIX",
        description =
            "Abort every open transaction of the exactly-once sink with transactional id prefix"
                + " PREFIX: ids PREFIX-<subtask>-<n>, matched whole.")
    String prefix;
  }

  @Override
  public void run() {
    PrintWriter out = spec.commandLine().getOut();
    try (LingeringTransactions transactions = new LingeringTransactions(bootstrap.clientConfig())) {
      if (abort == null) {
        print(out, transactions.list(""));
      } else if (abort.transactionalId != null) {
        transactions.abort(abort.transactionalId);
        out.println("aborted any open transaction of " + abort.transactionalId);
      } else {
        for (OpenTransaction aborted :
            transactions.abortMatching(TransactionalIds.of(abort.prefix))) {
          out.println("aborted " + aborted.transactionalId());
        }
      }
    } catch (BrokerUnreachableException e) {
      throw new UserError(e.getMessage(), e);
    }
    out.flush();
  }

  private static void print(PrintWriter out, List<OpenTransaction> transactions) {
    if (transactions.isEmpty()) {
      out.println("no open transactions");
      return;
    }
    String format = "%-32s %12s %6s %-14s %8s  %s%n";
    out.printf(format, "TRANSACTIONAL ID", "PRODUCER ID", "EPOCH", "STATE", "AGE", "PARTITIONS");
    Instant now = Instant.now();
    for (OpenTransaction transaction : transactions) {
      out.printf(
          format,
          transaction.transactionalId(),
          transaction.producerId(),
          transaction.producerEpoch(),
          transaction.state(),
          transaction.age(now).map(KafkaTransactionsCommand::seconds).orElse("?"),
          transaction.partitions().stream()
              .map(Object::toString)
              .sorted()
              .collect(Collectors.joining(",")));
    }
  }

  private static String seconds(Duration age) {
    return age.toSeconds() + " s";
  }
}
