package io.weir.cluster.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import example.gadget.RecordingGadget;
import io.weir.api.source.SourceSplit;
import java.io.InvalidClassException;
import java.io.Serializable;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Splits an enumerator assigned travel as bytes in {@link ControlMessages.AssignSplits}: they come
 * back in order with the attempt's class loader (an empty assignment too), also when their class is
 * the job jar's own, and a split holding a class outside the records' allowlist is refused before
 * it is created.
 */
class SplitAssignmentsTest {
  @Test
  void when_splitsAreEncodedAndDecoded_then_theyComeBackInOrder() throws Exception {
    List<SourceSplit> splits = List.of(new TestSplit("orders-3", 17), new TestSplit("orders-0", 0));

    List<SourceSplit> decoded =
        SplitAssignments.decode(
            SplitAssignments.encode(splits), SplitAssignmentsTest.class.getClassLoader());

    assertThat(decoded).containsExactlyElementsOf(splits);
  }

  @Test
  void when_anEmptyAssignmentIsEncoded_then_itDecodesAsAnEmptyList() throws Exception {
    // An empty assignment tells a reader it has no split for now, and so may be idle.
    byte[] bytes = SplitAssignments.encode(List.of());

    List<SourceSplit> decoded =
        SplitAssignments.decode(bytes, SplitAssignmentsTest.class.getClassLoader());

    assertThat(bytes).isNotEmpty();
    assertThat(decoded).isEmpty();
  }

  @Test
  void when_aSplitHoldsAClassOutsideTheAllowlist_then_decodingRefusesItBeforeItsReadObjectRuns() {
    int readsBefore = RecordingGadget.READS.get();
    byte[] bytes = SplitAssignments.encode(List.of(new GadgetSplit(new RecordingGadget())));

    assertThatThrownBy(
            () -> SplitAssignments.decode(bytes, SplitAssignmentsTest.class.getClassLoader()))
        .isInstanceOf(InvalidClassException.class)
        .hasMessageContaining("REJECTED");
    assertThat(RecordingGadget.READS.get()).isEqualTo(readsBefore);
  }

  @Test
  void when_aSplitHoldsAClassOfTheJobsOwnLoader_then_itDecodesWithThatClass() throws Exception {
    // given: a job loader that defines the split's value class itself (not through Weir's loader)
    URL classes = RecordingGadget.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader jobLoader = new JobJarLoader(classes)) {
      Class<?> ownClass = jobLoader.loadClass(RecordingGadget.class.getName());
      Serializable value = (Serializable) ownClass.getDeclaredConstructor().newInstance();

      List<SourceSplit> decoded =
          SplitAssignments.decode(
              SplitAssignments.encode(List.of(new GadgetSplit(value))), jobLoader);

      assertThat(((GadgetSplit) decoded.get(0)).value().getClass()).isSameAs(ownClass);
    }
  }

  /**
   * Defines the classes of {@code example.gadget} itself, as a job jar's loader; others as Weir's.
   */
  private static final class JobJarLoader extends URLClassLoader {
    JobJarLoader(URL classes) {
      super(new URL[] {classes}, SplitAssignmentsTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith("example.gadget.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        return loaded != null ? loaded : findClass(name);
      }
    }
  }

  record TestSplit(String split, long position) implements SourceSplit {}

  record GadgetSplit(Serializable value) implements SourceSplit {
    @Override
    public String split() {
      return "gadget";
    }

    @Override
    public long position() {
      return 0;
    }
  }
}
