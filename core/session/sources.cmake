# Sources of core/session/ (orchestration shared by headlens-cli and the window: jobs, the
# weights policy, the model cache and the Session that runs them).
target_sources(headlens_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/weightspolicy.cpp
    ${CMAKE_CURRENT_LIST_DIR}/modelcache.cpp
    ${CMAKE_CURRENT_LIST_DIR}/session.cpp
    ${CMAKE_CURRENT_LIST_DIR}/ablationeffect.cpp
    ${CMAKE_CURRENT_LIST_DIR}/layerimportance.cpp
    ${CMAKE_CURRENT_LIST_DIR}/comparisonrequest.cpp
    ${CMAKE_CURRENT_LIST_DIR}/comparisonjob.cpp
)
