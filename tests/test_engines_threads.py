"""The engines' threads: numpy's matrix products stay on the thread that asks for them."""
from streaming.engines import _OPENBLAS_SETTERS, openblas_libraries


def test_the_engines_keep_numpy_products_on_the_calling_thread(engines):
    """Whisper's and Smart Turn's features run on their own threads; OpenBLAS's spinning helpers would take a
    core from them."""
    getters = [getattr(library, name.replace("_set_", "_get_")) for library in openblas_libraries()
               for name in _OPENBLAS_SETTERS if hasattr(library, name)]
    assert getters, "numpy's OpenBLAS is loaded in this process"
    assert all(get() == 1 for get in getters)
