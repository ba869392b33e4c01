#!/usr/bin/env bash
# Prints the CPU as the benchmark reports name it: /proc/cpuinfo's model name, and its family and
# model, since a VM often reports only the vendor's line ("AMD EPYC") and the generation is what
# the figures depend on. Used by the scripts in bench/ (shell and Python).
name=$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
family=$(grep -m1 '^cpu family' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | tr -d ' ')
model=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | tr -d ' ')
name=${name:-$(uname -m)}
if [ -n "$family" ] && [ -n "$model" ]; then
  echo "$name (cpu family $family, model $model)"
else
  echo "$name"
fi
