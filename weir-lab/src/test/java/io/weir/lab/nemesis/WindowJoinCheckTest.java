package io.weir.lab.nemesis;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.lab.nemesis.WindowJoinCheck.InputRecord;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The window join's committed rows against pairs a plain loop finds in its two inputs. */
class WindowJoinCheckTest {
  // Windows are two seconds of event time: [0, 2000), [2000, 4000), ...
  private static final List<InputRecord> FIRST =
      inputOf("0:a,1,100", "0:a,1,1500", "1:b,1,200", "0:a,1,2100", "1:b,1,9000");
  private static final List<InputRecord> SECOND =
      inputOf("0:a,1,300", "1:b,1,1900", "0:a,1,2500", "1:b,1,9100");

  /** Past the windows of 0 and 2000, short of 8000's. */
  private static final long WATERMARK = 6000;

  @Test
  void when_everyClosedWindowsPairsAreCommittedOnce_then_nothingIsMissingOrExtra() {
    List<String> committed = List.of("a,100,300", "a,1500,300", "b,200,1900", "a,2100,2500");

    assertThat(WindowJoinCheck.check(FIRST, SECOND, committed, WATERMARK))
        .isEqualTo(new WindowJoinCheck.Result(9, 4, 4, 0, 0));
  }

  @Test
  void when_aPairIsLostAndAnotherRepeated_then_bothAreCounted() {
    List<String> committed = List.of("a,100,300", "b,200,1900", "b,200,1900", "a,2100,2500");

    assertThat(WindowJoinCheck.check(FIRST, SECOND, committed, WATERMARK))
        .isEqualTo(new WindowJoinCheck.Result(9, 4, 4, 1, 1));
  }

  @Test
  void when_aRowPairsRecordsOfDifferentWindows_then_itIsExtra() {
    List<String> committed =
        List.of("a,100,300", "a,1500,300", "b,200,1900", "a,2100,2500", "a,1500,2500");

    assertThat(WindowJoinCheck.check(FIRST, SECOND, committed, WATERMARK))
        .isEqualTo(new WindowJoinCheck.Result(9, 4, 5, 0, 1));
  }

  @Test
  void when_aWindowNearTheFinalWatermarkShowsOnlySomeOfItsPairs_then_theRestAreMissing() {
    // the window of 2000 may or may not close at a watermark of 4000; once shown, it is whole
    List<InputRecord> second = inputOf("0:a,1,300", "1:b,1,1900", "0:a,1,2500", "0:a,1,2600");
    List<String> shownInPart = List.of("a,100,300", "a,1500,300", "b,200,1900", "a,2100,2500");
    List<String> notShown = List.of("a,100,300", "a,1500,300", "b,200,1900");

    assertThat(WindowJoinCheck.check(FIRST, second, shownInPart, 4000))
        .isEqualTo(new WindowJoinCheck.Result(9, 5, 4, 1, 0));
    assertThat(WindowJoinCheck.check(FIRST, second, notShown, 4000))
        .isEqualTo(new WindowJoinCheck.Result(9, 3, 3, 0, 0));
  }

  @Test
  void when_theInputsStop_then_theFinalWatermarkIsTheSlowestPartitionsLessTheBound() {
    // partition 0 of the first input ends at 2100, the slowest of all four
    assertThat(WindowJoinCheck.finalWatermark(FIRST, SECOND)).isEqualTo(2100 - 2000 - 1);
  }

  private static List<InputRecord> inputOf(String... partitionAndValue) {
    return Arrays.stream(partitionAndValue)
        .map(
            entry ->
                new InputRecord(
                    Integer.parseInt(entry.substring(0, entry.indexOf(':'))),
                    entry.substring(entry.indexOf(':') + 1)))
        .toList();
  }
}
