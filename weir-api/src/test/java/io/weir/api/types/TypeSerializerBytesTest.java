package io.weir.api.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bytes of a record and of a POJO, value and schema, pinned: checkpoints and RocksDB state
 * written by an earlier version must read back, so how members are reached may change but not what
 * is written.
 */
class TypeSerializerBytesTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final String READING =
      "05d804bff800000000000001808080f4030307e90101036b576800010201020101";
  private static final String METER = "0180a0abfef962003fb999999999999a0101075ac3bc72696368";

  /** Every primitive kind, a string, a null boxed value and a list. */
  record Reading(
      long sensor,
      int count,
      double value,
      boolean valid,
      float ratio,
      short level,
      byte flags,
      char unit,
      String name,
      Long previous,
      List<Long> history) {}

  /** Public fields and properties with getters and setters, one an {@code is} getter. */
  public static class Meter {
    public long id;
    public String site;
    private int phase;
    private boolean active;
    private double load;
    private Integer limit;

    public int getPhase() {
      return phase;
    }

    public void setPhase(int phase) {
      this.phase = phase;
    }

    public boolean isActive() {
      return active;
    }

    public void setActive(boolean active) {
      this.active = active;
    }

    public double getLoad() {
      return load;
    }

    public void setLoad(double load) {
      this.load = load;
    }

    public Integer getLimit() {
      return limit;
    }

    public void setLimit(Integer limit) {
      this.limit = limit;
    }
  }

  private final TypeSerializer<Reading> readings = TypeSerializer.of(Reading.class);
  private final TypeSerializer<Meter> meters = TypeSerializer.of(Meter.class);

  @Test
  void when_aRecordIsSerialized_then_itsBytesAreThoseOfEarlierVersions() {
    // given
    Reading reading =
        new Reading(
            -3L, 300, -1.5, true, 0.25f, (short) -2, (byte) 7, 'é', "kWh", null, List.of(1L, -1L));
    // when
    byte[] bytes = readings.serialize(reading);
    // then
    assertThat(HEX.formatHex(bytes)).isEqualTo(READING);
    assertThat(HEX.formatHex(readings.schema()))
        .isEqualTo(
            "050b0673656e736f7201046c6f6e6705636f756e740103696e740576616c75650106646f75626c65"
                + "0576616c69640107626f6f6c65616e05726174696f0105666c6f6174056c6576656c010573686f"
                + "727405666c61677301046279746504756e6974010463686172046e616d65020106537472696e67"
                + "0870726576696f75730201046c6f6e6707686973746f72790203044c6973740201046c6f6e67");
    assertThat(readings.deserialize(bytes)).isEqualTo(reading);
  }

  @Test
  void when_aPojoIsSerialized_then_itsBytesAreThoseOfEarlierVersions() {
    // given
    Meter meter = new Meter();
    meter.id = 1_700_000_000_000L;
    meter.site = "Zürich";
    meter.setPhase(-1);
    meter.setActive(true);
    meter.setLoad(0.1);
    // when
    byte[] bytes = meters.serialize(meter);
    // then
    assertThat(HEX.formatHex(bytes)).isEqualTo(METER);
    assertThat(HEX.formatHex(meters.schema()))
        .isEqualTo(
            "0506066163746976650107626f6f6c65616e02696401046c6f6e67056c696d6974020103696e7404"
                + "6c6f61640106646f75626c650570686173650103696e740473697465020106537472696e67");
    Meter read = meters.deserialize(bytes);
    assertThat(read.id).isEqualTo(meter.id);
    assertThat(read.site).isEqualTo("Zürich");
    assertThat(read.getPhase()).isEqualTo(-1);
    assertThat(read.isActive()).isTrue();
    assertThat(read.getLoad()).isEqualTo(0.1);
    assertThat(read.getLimit()).isNull();
  }

  @ParameterizedTest
  @CsvSource({"Reading, " + READING, "Meter, " + METER})
  void when_theTypeIsOfAnotherClassLoader_then_itReadsAndWritesTheSameBytes(
      String type, String pinned) throws Exception {
    // given: a class loader of its own, as a job's classes have, which grants no full access
    URL classes = getClass().getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
      Class<?> isolated = loader.loadClass(getClass().getName() + "$" + type);
      @SuppressWarnings("unchecked")
      TypeSerializer<Object> serializer = (TypeSerializer<Object>) TypeSerializer.of(isolated);
      // when
      Object read = serializer.deserialize(HEX.parseHex(pinned));
      // then
      assertThat(read).isInstanceOf(isolated);
      assertThat(HEX.formatHex(serializer.serialize(read))).isEqualTo(pinned);
    }
  }
}
