package io.weir.cli.kafka;

import io.weir.cli.error.UserError;
import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code weir kafka topics}: topics and their partition counts. */
@Command(name = "topics", description = "List topics with their partition counts.")
final class KafkaTopicsCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin BootstrapOption bootstrap;

  @Override
  public void run() {
    Map<String, TopicDescription> topics;
    try (Admin admin = Admin.create(bootstrap.clientConfig())) {
      topics =
          new TreeMap<>(
              admin.describeTopics(admin.listTopics().names().get()).allTopicNames().get());
    } catch (ExecutionException e) {
      throw unreachableOr(e.getCause());
    } catch (KafkaException e) {
      throw unreachableOr(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("interrupted while listing topics at " + bootstrap.bootstrapServers);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf("%-40s %10s%n", "TOPIC", "PARTITIONS");
    topics.forEach(
        (name, description) -> out.printf("%-40s %10d%n", name, description.partitions().size()));
    out.flush();
  }

  private UserError unreachableOr(Throwable cause) {
    if (cause instanceof TimeoutException || cause instanceof KafkaException) {
      return new UserError(
          "no Kafka broker answered at "
              + bootstrap.bootstrapServers
              + " while listing topics (is the broker running? check --bootstrap)",
          cause);
    }
    return new UserError(
        "listing topics at " + bootstrap.bootstrapServers + " failed: " + cause, cause);
  }
}
