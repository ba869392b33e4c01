module example.modular {
  requires io.github.blake3fast;
}
