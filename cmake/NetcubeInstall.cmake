# The installed tree and the Debian package (CPack):
#   bin/                       the executables
#   share/netcube/             data (the link profiles); each program looks here relative to itself first
#   share/doc/netcube/         README, docs/*.md and their images, copyright (Debian's machine-readable
#                              format: netcube's MIT licence and the code linked in)
#   lib/systemd/system/        netcube-server.service (installed, not enabled)
#   <sysconfdir>/default/      netcube-server: the service's flags
# The build tree mirrors share/netcube/ next to its bin/, so programs run from the build find their data
# the same way.
include(GNUInstallDirs)

set(NETCUBE_DATA_SUBDIR "${CMAKE_INSTALL_DATADIR}/netcube")
file(RELATIVE_PATH NETCUBE_DATA_FROM_BIN "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_DATADIR}/netcube")
# The system's /etc for the /usr prefix (the package), else etc/ inside the prefix, so that
# `cmake --install --prefix DIR` writes nothing outside DIR.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(NETCUBE_DEFAULTS_DIR "/etc/default")
else()
  set(NETCUBE_DEFAULTS_DIR "${CMAKE_INSTALL_SYSCONFDIR}/default")
endif()
set(NETCUBE_DEFAULTS_FILE "${CMAKE_INSTALL_FULL_SYSCONFDIR}/default/netcube-server")

configure_file("${PROJECT_SOURCE_DIR}/assets/link_profiles.json" "${PROJECT_BINARY_DIR}/${NETCUBE_DATA_SUBDIR}/link_profiles.json"
               COPYONLY)

function(netcube_install_executables)
  install(TARGETS ${ARGN} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
endfunction()

install(FILES "${PROJECT_SOURCE_DIR}/assets/link_profiles.json" DESTINATION "${NETCUBE_DATA_SUBDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/packaging/copyright"
        DESTINATION "${CMAKE_INSTALL_DOCDIR}")
file(GLOB netcube_docs "${PROJECT_SOURCE_DIR}/docs/*.md")
install(FILES ${netcube_docs} DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/images" DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs")

configure_file("${PROJECT_SOURCE_DIR}/packaging/netcube-server.service.in"
               "${PROJECT_BINARY_DIR}/packaging/netcube-server.service" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/packaging/netcube-server.service" DESTINATION "lib/systemd/system")
install(FILES "${PROJECT_SOURCE_DIR}/packaging/netcube-server.default" DESTINATION "${NETCUBE_DEFAULTS_DIR}"
        RENAME netcube-server)

# The Debian package: `cpack -G DEB` in a build configured with CMAKE_INSTALL_PREFIX=/usr
# (scripts/package.sh). Dependencies come from dpkg-shlibdeps over the executables (dpkg-dev).
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "netcube")
set(CPACK_PACKAGE_VENDOR "netcube")
set(CPACK_PACKAGE_CONTACT "netcube authors <netcube@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Networked multiplayer demo: client prediction, reconciliation, interpolation")
set(CPACK_PACKAGE_DESCRIPTION "netcube shows the techniques of fast-paced multiplayer games live: an authoritative
server, clients that predict and reconcile, interpolated remote players, a link conditioner, LAN discovery.
It includes netcube-server (with a systemd unit, not enabled), netcube-client, netcube-bot and netcube-bench.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "games")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${PROJECT_SOURCE_DIR}/packaging/postinst;${PROJECT_SOURCE_DIR}/packaging/postrm;${PROJECT_SOURCE_DIR}/packaging/conffiles")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
