package io.weir.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README is the front page: short, and every page it points to is there. A link into the
 * repository names a file that exists (a page of {@code docs/} for everything but the project's own
 * files), and a link to a section names a heading of that page.
 */
class ReadmeLinksTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final int MOST_LINES = 300;
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*$");

  @Test
  void when_readmeIsRead_then_itHasAtMost300Lines() throws IOException {
    assertThat(Files.readAllLines(ROOT.resolve("README.md"))).hasSizeLessThanOrEqualTo(MOST_LINES);
  }

  @Test
  void when_readmeLinksAreFollowed_then_eachReachesAFileOfTheRepository() throws IOException {
    List<String> broken = new ArrayList<>();
    List<String> outsideDocs = new ArrayList<>();
    for (String target : localLinks(ROOT.resolve("README.md"))) {
      String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
      Path page = ROOT.resolve(file).normalize();
      if (!Files.isRegularFile(page)) {
        broken.add(target);
      } else if (!page.startsWith(ROOT.resolve("docs")) && !ROOT.equals(page.getParent())) {
        outsideDocs.add(target);
      }
    }
    assertThat(broken).as("README links to missing files").isEmpty();
    assertThat(outsideDocs).as("README links outside docs/ and the project's own files").isEmpty();
  }

  @Test
  void when_readmeLinksToASection_then_thePageHasThatHeading() throws IOException {
    List<String> missing = new ArrayList<>();
    for (String target : localLinks(ROOT.resolve("README.md"))) {
      int hash = target.indexOf('#');
      if (hash < 0) {
        continue;
      }
      Path page = ROOT.resolve(target.substring(0, hash)).normalize();
      if (Files.isRegularFile(page) && !anchors(page).contains(target.substring(hash + 1))) {
        missing.add(target);
      }
    }
    assertThat(missing).as("README links to sections that are not there").isEmpty();
  }

  private static List<String> localLinks(Path markdown) throws IOException {
    List<String> targets = new ArrayList<>();
    Matcher link = LINK.matcher(Files.readString(markdown));
    while (link.find()) {
      String target = link.group(1);
      if (!target.contains("://") && !target.startsWith("mailto:") && !target.startsWith("#")) {
        targets.add(target);
      }
    }
    assertThat(targets).as("links found in " + markdown).isNotEmpty();
    return targets;
  }

  /** The anchors a renderer gives the page's headings: lower case, punctuation dropped. */
  private static List<String> anchors(Path page) throws IOException {
    List<String> anchors = new ArrayList<>();
    boolean inCode = false;
    for (String line : Files.readAllLines(page)) {
      if (line.startsWith("```")) {
        inCode = !inCode;
      }
      Matcher heading = HEADING.matcher(line);
      if (!inCode && heading.matches()) {
        anchors.add(
            heading
                .group(1)
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-'));
      }
    }
    return anchors;
  }
}
