# Overlay port: the source is this repository (two folders up), not a download.
#   vcpkg install --overlay-ports=ports continuum
set(VCPKG_BUILD_TYPE release)  # header-only
get_filename_component(SOURCE_PATH "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)

vcpkg_cmake_configure(
    SOURCE_PATH "${SOURCE_PATH}"
    OPTIONS
        -DCONTINUUM_BUILD_TESTS=OFF
        -DCONTINUUM_BUILD_EXAMPLES=OFF
        -DCONTINUUM_BUILD_BENCHMARKS=OFF
        -DCONTINUUM_BUILD_PYTHON=OFF
        -DCONTINUUM_INSTALL=ON
)
vcpkg_cmake_install()
vcpkg_cmake_config_fixup(CONFIG_PATH share/cmake/continuum)
vcpkg_fixup_pkgconfig()
file(REMOVE_RECURSE "${CURRENT_PACKAGES_DIR}/share/doc")
file(INSTALL "${CMAKE_CURRENT_LIST_DIR}/usage" DESTINATION "${CURRENT_PACKAGES_DIR}/share/${PORT}")
vcpkg_install_copyright(FILE_LIST "${SOURCE_PATH}/LICENSE")
