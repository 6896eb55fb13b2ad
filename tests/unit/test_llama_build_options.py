"""The real-model tests' llama.cpp build names its x86 SIMD levels and never AMX: a native
build on an AMX CPU crashed at its first matrix multiply in a VM that does not grant AMX state
(SIGSEGV at ``ldtilecfg``), so every real_model test failed before it began."""

from __future__ import annotations

from tests.support.llama_server import binary_path, simd_options

SAPPHIRE_RAPIDS = ("processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse4_2 avx f16c fma "
                   "bmi2 avx2 avx512f avx512vbmi avx512_vnni avx512_bf16 amx_bf16 amx_tile "
                   "amx_int8\n")
OLD_LAPTOP = "processor\t: 0\nflags\t\t: fpu sse4_2 avx\n"
ARM = "processor\t: 0\nFeatures\t: fp asimd evtstrm aes\nCPU implementer\t: 0x41\n"


def test_an_amx_cpu_gets_its_simd_levels_and_no_amx() -> None:
    options = simd_options(SAPPHIRE_RAPIDS)
    assert options[0] == "-DGGML_NATIVE=OFF"  # -march=native would turn AMX back on
    assert {"-DGGML_AVX2=ON", "-DGGML_AVX512=ON", "-DGGML_AVX512_VNNI=ON"} <= set(options)
    assert not [o for o in options if "AMX" in o]


def test_a_cpu_gets_only_the_levels_it_has() -> None:
    assert simd_options(OLD_LAPTOP) == ["-DGGML_NATIVE=OFF", "-DGGML_AVX=ON"]


def test_off_x86_the_native_build_stays() -> None:
    assert simd_options(ARM) == []


def test_a_binary_from_the_native_build_is_not_picked_up() -> None:
    assert binary_path().parent.name.endswith("-no-amx")
