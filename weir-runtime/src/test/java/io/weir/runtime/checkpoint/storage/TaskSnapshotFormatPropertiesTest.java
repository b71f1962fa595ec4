package io.weir.runtime.checkpoint.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class TaskSnapshotFormatPropertiesTest {

  @Property(tries = 300)
  void when_anySnapshotWritten_then_readReturnsTheSameState(
      @ForAll("snapshots") TaskSnapshot snapshot) throws IOException {
    TaskSnapshot decoded = TaskSnapshotFormat.read(TaskSnapshotFormat.toBytes(snapshot));

    assertThat(Snapshots.readable(decoded)).isEqualTo(Snapshots.readable(snapshot));
    assertThat(List.copyOf(decoded.operators().keySet()))
        .containsExactlyElementsOf(snapshot.operators().keySet());
  }

  @Property(tries = 300)
  void when_encodingTruncatedAnywhere_then_readFails(
      @ForAll("snapshots") TaskSnapshot snapshot,
      @ForAll @IntRange(min = 0, max = 10_000) int cut) {
    byte[] bytes = TaskSnapshotFormat.toBytes(snapshot);
    byte[] truncated = Arrays.copyOf(bytes, cut % bytes.length);

    assertThatThrownBy(() -> TaskSnapshotFormat.read(truncated)).isInstanceOf(IOException.class);
  }

  @Property(tries = 100)
  void when_bytesAppended_then_readFails(
      @ForAll("snapshots") TaskSnapshot snapshot, @ForAll @IntRange(min = 1, max = 8) int extra) {
    byte[] bytes = TaskSnapshotFormat.toBytes(snapshot);
    byte[] longer = Arrays.copyOf(bytes, bytes.length + extra);

    assertThatThrownBy(() -> TaskSnapshotFormat.read(longer))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("unexpected bytes");
  }

  @Property(tries = 50)
  void when_magicWrong_then_readFailsNamingIt(@ForAll("snapshots") TaskSnapshot snapshot) {
    byte[] bytes = TaskSnapshotFormat.toBytes(snapshot);
    bytes[0] ^= 0x01;

    assertThatThrownBy(() -> TaskSnapshotFormat.read(bytes))
        .hasMessage("not a Weir state file (bad magic number)");
  }

  @Provide
  Arbitrary<TaskSnapshot> snapshots() {
    Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(16);
    Arbitrary<String> names =
        Arbitraries.strings().withCharRange(' ', '\u07ff').withChars("->:ü€").ofMaxLength(12);
    Arbitrary<Map<String, List<byte[]>>> lists =
        Arbitraries.maps(names, bytes.list().ofMaxSize(5)).ofMaxSize(3);
    Arbitrary<Map<Integer, byte[]>> keyGroups =
        Arbitraries.maps(Arbitraries.integers().between(0, 32767), bytes).ofMaxSize(6);
    Arbitrary<OperatorSubtaskState> states =
        Combinators.combine(lists, lists, keyGroups).as(OperatorSubtaskState::new);
    return Arbitraries.maps(names, states).ofMaxSize(4).map(TaskSnapshot::new);
  }
}
