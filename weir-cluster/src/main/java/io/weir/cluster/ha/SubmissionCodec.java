package io.weir.cluster.ha;

import io.weir.cluster.rpc.JobJar;
import io.weir.cluster.rpc.JobSubmission;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A submission in the job store, as readable properties (its settings and its jar's file name and
 * SHA-256; the jar itself stays in the shared storage directory): nothing in ZooKeeper is Java
 * serialized, so nothing read from it can create arbitrary objects.
 */
final class SubmissionCodec {
  private SubmissionCodec() {}

  static byte[] encode(JobSubmission submission) {
    Properties properties = new Properties();
    properties.setProperty("class", submission.jobClass());
    properties.setProperty("args", String.valueOf(submission.args().size()));
    for (int i = 0; i < submission.args().size(); i++) {
      properties.setProperty("arg." + i, submission.args().get(i));
    }
    maybeSet(properties, "parallelism", submission.parallelism());
    maybeSet(properties, "checkpoint.dir", submission.checkpointDirectory());
    maybeSet(properties, "restore.path", submission.restorePath());
    properties.setProperty("fresh", String.valueOf(submission.fresh()));
    if (submission.jar() != null) {
      properties.setProperty("jar.file", submission.jar().fileName());
      properties.setProperty("jar.sha256", submission.jar().sha256());
    }
    properties.setProperty("allow.fallback", String.valueOf(submission.allowFallback()));
    properties.setProperty("accept.data.loss", String.valueOf(submission.acceptDataLoss()));
    maybeSet(properties, "state.backend", submission.stateBackend());
    properties.setProperty("unaligned", String.valueOf(submission.unalignedCheckpoints()));
    maybeSet(properties, "aligned.timeout", submission.alignedCheckpointTimeout());
    StringWriter text = new StringWriter();
    try {
      properties.store(text, "a job submitted to the cluster");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  static JobSubmission decode(byte[] bytes) {
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(new String(bytes, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> args = new ArrayList<>();
    int count = Integer.parseInt(properties.getProperty("args", "0"));
    for (int i = 0; i < count; i++) {
      args.add(properties.getProperty("arg." + i));
    }
    String parallelism = properties.getProperty("parallelism");
    String jarFile = properties.getProperty("jar.file");
    String alignedTimeout = properties.getProperty("aligned.timeout");
    return new JobSubmission(
        properties.getProperty("class"),
        args,
        parallelism == null ? null : Integer.valueOf(parallelism),
        properties.getProperty("checkpoint.dir"),
        properties.getProperty("restore.path"),
        Boolean.parseBoolean(properties.getProperty("fresh")),
        jarFile == null ? null : new JobJar(jarFile, properties.getProperty("jar.sha256")),
        Boolean.parseBoolean(properties.getProperty("allow.fallback")),
        Boolean.parseBoolean(properties.getProperty("accept.data.loss")),
        properties.getProperty("state.backend"),
        Boolean.parseBoolean(properties.getProperty("unaligned")),
        alignedTimeout == null ? null : Duration.parse(alignedTimeout));
  }

  private static void maybeSet(Properties properties, String key, Object value) {
    if (value != null) {
      properties.setProperty(key, value.toString());
    }
  }
}
