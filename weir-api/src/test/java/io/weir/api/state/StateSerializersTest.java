package io.weir.api.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The fast default serializer of state values and keys. */
class StateSerializersTest {
  private final StateSerializer<Object> tagged = StateSerializers.tagged();

  @Test
  void when_commonTypesAreSerialized_then_theyComeBackEqualInATypeByteMoreThanTheirSize() {
    // given
    List<Object> values = List.of(42L, -7, 2.5, true, "wörd", new byte[] {1, 2, 3});

    for (Object value : values) {
      // when
      byte[] bytes = tagged.serialize(value);

      // then
      assertThat(tagged.deserialize(bytes)).isEqualTo(value);
    }
    assertThat(tagged.serialize(42L)).hasSize(9);
    assertThat(tagged.serialize(-7)).hasSize(5);
  }

  @Test
  void when_anotherTypeIsSerialized_then_javaSerializationCarriesIt() {
    // given
    TreeSet<Long> timers = new TreeSet<>(List.of(3L, 1L));

    // when
    Object back = tagged.deserialize(tagged.serialize(timers));

    // then
    assertThat(back).isEqualTo(timers);
  }

  @Test
  void when_equalKeysAreSerialized_then_theirBytesAreEqual() {
    assertThat(tagged.serialize(new String("key"))).isEqualTo(tagged.serialize("key"));
    assertThat(tagged.serialize(Long.valueOf(1_000_000L))).isEqualTo(tagged.serialize(1_000_000L));
  }
}
