package io.weir.devservers.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.devservers.process.RecordedProcess.UnreadableCommandLine;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RecordedProcessTest {
  private static final String MARK = "-Dweir.recorded.process.test=true";

  private Process process;

  @AfterEach
  void stopProcess() {
    if (process != null) {
      ProcessStopper.kill(process.toHandle());
    }
  }

  @Test
  void when_aLiveProcessCarriesTheMark_then_itIsFoundByItsPid() throws IOException {
    // given: a shell whose command line carries the mark (as its $0)
    process = shellNamed(MARK);

    // when / then
    assertThat(RecordedProcess.find(process.pid(), MARK, UnreadableCommandLine.STRANGER))
        .map(ProcessHandle::pid)
        .contains(process.pid());
  }

  @Test
  void when_thePidBelongsToAnotherProgram_then_itIsNotFound() throws IOException {
    // given: a live process without the mark, as after the pid was reused
    process = shellNamed("another-program");

    // when / then: under either rule for unreadable command lines, since this one is readable
    assertThat(RecordedProcess.find(process.pid(), MARK, UnreadableCommandLine.STRANGER)).isEmpty();
    assertThat(RecordedProcess.find(process.pid(), MARK, UnreadableCommandLine.RECORDED)).isEmpty();
  }

  @Test
  void when_theRecordedProcessWasKilled_then_itIsNotFound() throws IOException {
    // given: the process the file recorded, killed with SIGKILL
    process = shellNamed(MARK);
    long pid = process.pid();
    ProcessStopper.kill(process.toHandle());

    // when / then
    assertThat(RecordedProcess.find(pid, MARK, UnreadableCommandLine.RECORDED)).isEmpty();
  }

  /** A shell that waits until it is killed, with {@code name} as its $0 on its command line. */
  private static Process shellNamed(String name) throws IOException {
    return new ProcessBuilder("sh", "-c", "while :; do sleep 1; done", name).start();
  }
}
