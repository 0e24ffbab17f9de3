"""Conan 2 recipe for continuum (header-only), following Conan Center's header-only template.

    conan create . --build=missing        # builds test_package/ against the created package
"""

import os
import re

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.cmake import CMake, CMakeToolchain, cmake_layout
from conan.tools.files import copy, load, rmdir

required_conan_version = ">=2.0"


class ContinuumConan(ConanFile):
    name = "continuum"
    description = "Header-only C++20 autoscaling decision engines"
    license = "MIT"
    url = "https://github.com/continuum-autoscaling/continuum"
    homepage = "https://github.com/continuum-autoscaling/continuum"
    topics = ("kubernetes", "autoscaling", "bin-packing", "forecasting", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    # Optional headers with compiled or extra dependencies (continuum itself stays header-only):
    # with_json: <continuum/serialization.hpp> (state as JSON) and <continuum/forecast/lstm_loader.hpp>
    #            (safetensors weights) need nlohmann_json;
    # with_priority_config: <continuum/federation/priority_config.hpp> (the priority expander's
    #            ConfigMap) parses YAML with yaml-cpp and compiles patterns with RE2, as the Cluster
    #            Autoscaler does; link the component continuum::priority_config where it is included.
    options = {"with_json": [True, False], "with_priority_config": [True, False]}
    default_options = {"with_json": True, "with_priority_config": False}
    exports_sources = "CMakeLists.txt", "cmake/*", "include/*", "LICENSE"
    no_copy_source = True

    def set_version(self):
        header = load(self, os.path.join(self.recipe_folder, "include", "continuum", "version.hpp"))
        parts = [re.search(rf"#define CONTINUUM_VERSION_{p} (\d+)", header).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
        self.version = ".".join(parts)

    def layout(self):
        cmake_layout(self, src_folder=".")

    def requirements(self):
        # Loose ranges: the code builds with Debian's Eigen 3.4 / fmt 9 and Conan Center's newer majors.
        self.requires("eigen/[>=3.4 <6]")
        self.requires("fmt/[>=9 <13]")
        if self.options.with_json:
            self.requires("nlohmann_json/[>=3.10 <4]")
        if self.options.with_priority_config:
            self.requires("yaml-cpp/[>=0.7 <1]")
            self.requires("re2/[>=20220601]")

    def package_id(self):
        self.info.clear()

    def validate(self):
        check_min_cppstd(self, 20)

    def generate(self):
        toolchain = CMakeToolchain(self)
        for option in ("TESTS", "EXAMPLES", "BENCHMARKS", "PYTHON"):
            toolchain.cache_variables[f"CONTINUUM_BUILD_{option}"] = False
        toolchain.cache_variables["CONTINUUM_INSTALL"] = True
        toolchain.generate()

    def build(self):
        pass  # header-only: nothing to compile

    def package(self):
        copy(self, "LICENSE", src=self.source_folder, dst=os.path.join(self.package_folder, "licenses"))
        cmake = CMake(self)
        cmake.configure()
        cmake.install()
        # CMakeDeps / PkgConfigDeps generate their own files from package_info().
        rmdir(self, os.path.join(self.package_folder, "share", "cmake"))
        rmdir(self, os.path.join(self.package_folder, "share", "pkgconfig"))
        rmdir(self, os.path.join(self.package_folder, "share", "doc"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "continuum")
        self.cpp_info.set_property("cmake_target_name", "continuum::continuum")
        self.cpp_info.set_property("pkg_config_name", "continuum")
        # Components mirror the CMake package's targets: continuum::continuum (Eigen, fmt, and
        # nlohmann_json when with_json) and continuum::priority_config (yaml-cpp, RE2).
        core = self.cpp_info.components["core"]
        core.set_property("cmake_target_name", "continuum::continuum")
        core.set_property("pkg_config_name", "continuum")
        core.requires = ["eigen::eigen", "fmt::fmt"]
        if self.options.with_json:
            core.requires.append("nlohmann_json::nlohmann_json")
        core.bindirs = []
        core.libdirs = []
        if self.options.with_priority_config:
            priority = self.cpp_info.components["priority_config"]
            priority.set_property("cmake_target_name", "continuum::priority_config")
            priority.requires = ["core", "yaml-cpp::yaml-cpp", "re2::re2"]
            priority.defines = ["CONTINUUM_HAVE_PRIORITY_CONFIG=1"]
            priority.bindirs = []
            priority.libdirs = []
