package io.weir.devservers.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreePortsTest {
  @TempDir Path directory;

  @Test
  void when_aPortIsPicked_then_itIsFreeAndBelowThePortsOfOutgoingConnections() throws IOException {
    // given: the range this kernel gives the local ends of outgoing connections
    assertThat(FreePorts.EPHEMERAL_RANGE).exists();
    int ephemeralLow = FreePorts.ephemeralLow(FreePorts.EPHEMERAL_RANGE);
    assertThat(ephemeralLow).isLessThan(65_536);

    for (int i = 0; i < 50; i++) {
      // when
      int port = FreePorts.pick();

      // then: no client connection can hold it while a server that listened on it is down, and a
      // server can listen on it now
      assertThat(port).isBetween(FreePorts.LOWEST, ephemeralLow - 1);
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(FreePorts.HOST))) {
        assertThat(socket.getLocalPort()).isEqualTo(port);
      }
    }
  }

  @Test
  void when_theRangeIsStatedOrNot_then_itsFirstPortOrNone() throws IOException {
    Path stated = Files.writeString(directory.resolve("range"), "40000\t60999\n");
    assertThat(FreePorts.ephemeralLow(stated)).isEqualTo(40_000);
    assertThat(FreePorts.ephemeralLow(directory.resolve("missing"))).isEqualTo(65_536);
    Path garbled = Files.writeString(directory.resolve("garbled"), "low high\n");
    assertThat(FreePorts.ephemeralLow(garbled)).isEqualTo(65_536);
  }
}
