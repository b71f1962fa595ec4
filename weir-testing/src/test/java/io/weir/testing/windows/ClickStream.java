package io.weir.testing.windows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random clicks of a few users in blocks of event time: within a block the clicks come in random
 * order, and after each block a watermark at its last millisecond, so no click is late.
 *
 * @param clicks every click, in the order they are fed
 * @param watermarkAfter for each click's index, the watermark fed right after it, or null
 */
record ClickStream(List<Click> clicks, List<Long> watermarkAfter) {
  static ClickStream random(long seed, int blocks, int users, long blockLength, int perBlock) {
    Random random = new Random(seed);
    List<Click> clicks = new ArrayList<>();
    List<Long> watermarks = new ArrayList<>();
    for (int block = 0; block < blocks; block++) {
      long start = block * blockLength;
      List<Click> inBlock = new ArrayList<>();
      int count = random.nextInt(perBlock + 1);
      for (int index = 0; index < count; index++) {
        long time = start + random.nextLong(blockLength);
        inBlock.add(new Click("u" + random.nextInt(users), time, 1 + random.nextInt(100)));
      }
      Collections.shuffle(inBlock, random);
      for (Click click : inBlock) {
        clicks.add(click);
        watermarks.add(null);
      }
      if (!clicks.isEmpty()) {
        watermarks.set(watermarks.size() - 1, start + blockLength - 1);
      }
    }
    return new ClickStream(clicks, watermarks);
  }

  /** Feeds every click with its time and the watermarks, then the final watermark. */
  void feed(ClickFeed harness) throws Exception {
    for (int index = 0; index < clicks.size(); index++) {
      harness.click(clicks.get(index));
      if (watermarkAfter.get(index) != null) {
        harness.watermark(watermarkAfter.get(index));
      }
    }
    harness.watermark(Long.MAX_VALUE);
  }

  /** Where a click stream goes. */
  interface ClickFeed {
    void click(Click click) throws Exception;

    void watermark(long watermark) throws Exception;
  }
}
