package io.weir.cluster.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import example.gadget.RecordingGadget;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.RecordEncoding;
import java.io.InvalidClassException;
import java.io.Serializable;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Records in data frames are deserialized only into Weir's classes, the platform's, and the classes
 * of the job's own jar; any other class on the class path is refused before it is created.
 */
class RecordAllowlistTest {
  @Test
  void when_aBatchHoldsAClassOutsideTheAllowlist_then_decodingRefusesItBeforeItsReadObjectRuns()
      throws Exception {
    int readsBefore = RecordingGadget.READS.get();
    byte[] payload = BatchCodec.encode(batchOf(new RecordingGadget()), JAVA_FOR_GADGETS);

    assertThatThrownBy(
            () ->
                BatchCodec.decode(
                    payload, RecordAllowlistTest.class.getClassLoader(), channel -> null))
        .isInstanceOf(InvalidClassException.class)
        .hasMessageContaining("REJECTED");
    assertThat(RecordingGadget.READS.get()).isEqualTo(readsBefore);
  }

  @Test
  void when_recordsAreOfWeirOrPlatformClasses_then_theyDecode() throws Exception {
    Object record =
        List.of(Map.of("at", Instant.ofEpochSecond(7)), new ClusterConnectException("x"));

    Batch decoded =
        BatchCodec.decode(
            BatchCodec.encode(batchOf((Serializable) record), JAVA_FOR_GADGETS),
            RecordAllowlistTest.class.getClassLoader(),
            channel -> null);

    assertThat(decoded.value(0).toString()).isEqualTo(record.toString());
  }

  @Test
  void when_aRecordIsAClassOfTheJobsOwnLoader_then_itDecodes() throws Exception {
    // given: a job loader that defines the class itself (not through Weir's loader)
    URL classes = RecordingGadget.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader jobLoader = new URLClassLoader(new URL[] {classes}, null)) {
      Class<?> ownClass = jobLoader.loadClass(RecordingGadget.class.getName());
      Object record = ownClass.getDeclaredConstructor().newInstance();

      Batch decoded =
          BatchCodec.decode(
              BatchCodec.encode(batchOf(record), javaFor(ownClass)), jobLoader, channel -> null);

      assertThat(decoded.value(0).getClass()).isSameAs(ownClass);
    }
  }

  /** A sender that writes gadgets by Java serialization, as a hostile peer would. */
  private static final RecordEncoding JAVA_FOR_GADGETS = javaFor(RecordingGadget.class);

  private static RecordEncoding javaFor(Class<?> type) {
    return new RecordEncoding(null, Set.of(type), "gadgets");
  }

  private static Batch batchOf(Object record) {
    return Batch.of(0, new Object[] {record}, new long[] {1});
  }
}
