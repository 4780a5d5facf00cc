#!/bin/sh
# Prints the GOAMD64 level to build for this machine: v3 when the processor
# has every x86-64-v3 feature (AVX2, BMI1/2, F16C, FMA, LZCNT, MOVBE:
# direct POPCNT, TZCNT and BMI2 shifts, which the move generator's bit
# tricks use throughout), else v1, the portable default. Like a C engine's
# -march=native: a v3 binary refuses to start on an older processor, so
# set GOAMD64=v1 to build one for any x86-64.
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
[ "$(uname -m)" = x86_64 ] || { echo v1; exit; }
for f in avx avx2 bmi1 bmi2 f16c fma abm movbe; do
	case " ${flags#*:} " in
	*" $f "*) ;;
	*) echo v1; exit ;;
	esac
done
echo v3
